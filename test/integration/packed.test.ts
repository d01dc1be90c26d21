/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The package as npm publishes it (`npm pack`, after `npm test`'s build), checked the way n8n's
 * verification does: the file list, the published package.json, the imports of the compiled code,
 * and the lint legs of n8n's package scanner (test/package/scan.mjs) on the tarball and the source.
 */
import { execFileSync, spawnSync } from 'child_process';
import {
	appendFileSync,
	cpSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
} from 'fs';
import { tmpdir } from 'os';
import { join, relative } from 'path';

import { OPERATIONS } from '../helpers/outputSchemas';

const root = join(__dirname, '..', '..');
const SCAN = join(root, 'test', 'package', 'scan.mjs');
/** n8n's allowed imports for community nodes, plus relative paths inside the package. */
const ALLOWED_IMPORTS = [
	'n8n-workflow',
	'luxon',
	'lodash',
	'moment',
	'p-limit',
	'zod',
	'crypto',
	'node:crypto',
];

let work: string;
let unpacked: string;
let files: string[];

function scan(folder: string, leg: 'tarball' | 'source') {
	// Without jest's NODE_ENV=test, which switches eslint-plugin-n8n-nodes-base to its own test
	// mode (file names of its fixtures).
	const env = { ...process.env };
	delete env.NODE_ENV;
	const result = spawnSync(process.execPath, [SCAN, folder, leg], {
		cwd: root,
		env,
		encoding: 'utf8',
	});
	return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

function jsFiles(folder: string): string[] {
	return readdirSync(folder, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.js'))
		.map((file) => join(folder, file));
}

beforeAll(() => {
	work = mkdtempSync(join(tmpdir(), 'seller-platform-pack-'));
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
		}),
	) as Array<{ filename: string; files: Array<{ path: string }> }>;
	files = packed.files.map((file) => file.path).sort();
	unpacked = join(work, 'package');
	mkdirSync(unpacked);
	execFileSync('tar', [
		'-xzf',
		join(work, packed.filename),
		'-C',
		unpacked,
		'--strip-components=1',
	]);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package (npm pack)', () => {
	it('ships only dist (with the output schemas), README, LICENSE, CHANGELOG and package.json', () => {
		const outside = files.filter((file) => !file.startsWith('dist/'));
		expect(outside).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']);
		expect(files).toEqual(
			expect.arrayContaining([
				'dist/credentials/SellerPlatformApi.credentials.js',
				'dist/nodes/SellerPlatform/SellerPlatform.node.js',
				'dist/nodes/SellerPlatform/SellerPlatform.node.json',
				'dist/nodes/SellerPlatformTrigger/SellerPlatformTrigger.node.js',
				'dist/nodes/SellerPlatformTrigger/SellerPlatformTrigger.node.json',
				'dist/icons/sellerPlatform.svg',
				'dist/icons/sellerPlatform.dark.svg',
			]),
		);
		// The output schemas n8n's editor previews, beside the node file (one per operation and
		// node version).
		expect(files.filter((file) => file.includes('/__schema__/'))).toEqual(
			['v1.0.0', 'v1.1.0']
				.flatMap((version) =>
					[...OPERATIONS].map(
						(name) => `dist/nodes/SellerPlatform/__schema__/${version}/${name}.json`,
					),
				)
				.sort(),
		);
		// No sources, tests, emulator or build state.
		expect(files.filter((file) => /(^|\/)test\/|\.tsbuildinfo$|(?<!\.d)\.ts$/.test(file))).toEqual(
			[],
		);
	});

	it('publishes a package.json n8n Cloud accepts: no dependencies, n8n-workflow as the only peer, no install scripts, no overrides', () => {
		const published = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
		expect(published.dependencies ?? {}).toEqual({});
		expect(published.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(published.overrides).toBeUndefined();
		const lifecycle = /^(pre|post)?(install|prepare|pack|publish|prepublishOnly|uninstall)$/;
		expect(Object.keys(published.scripts ?? {}).filter((name) => lifecycle.test(name))).toEqual([]);
		expect(published.license).toBe('MIT');
		expect(published.n8n.strict).toBe(true);
	});

	it('imports only what n8n provides (n8n-workflow, luxon, crypto) or its own files', () => {
		const imported = new Map<string, string>();
		for (const file of jsFiles(join(unpacked, 'dist'))) {
			const code = readFileSync(file, 'utf8');
			for (const [, specifier] of code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) {
				if (!specifier.startsWith('.')) imported.set(specifier, relative(unpacked, file));
			}
			expect(code).not.toMatch(/\bimport\(\s*["']/);
		}
		const notAllowed = [...imported].filter(([specifier]) => !ALLOWED_IMPORTS.includes(specifier));
		expect(notAllowed).toEqual([]);
		expect([...imported.keys()].sort()).toEqual(['crypto', 'luxon', 'n8n-workflow']);
	});

	it("passes the lint of n8n's package scanner on the tarball's JavaScript and package.json", () => {
		const result = scan(unpacked, 'tarball');
		expect(result.output).toMatch(/^PASS \(tarball\)/);
		expect(result.code).toBe(0);
	}, 120_000);

	it("passes the lint of n8n's package scanner on the source (package.json, nodes/, credentials/)", () => {
		const result = scan(root, 'source');
		expect(result.output).toMatch(/^PASS \(source\)/);
		expect(result.code).toBe(0);
	}, 120_000);

	it('the scan fails a tarball with a timer in it, whatever its eslint-disable comments say', () => {
		const broken = join(work, 'broken');
		cpSync(unpacked, broken, { recursive: true });
		appendFileSync(
			join(broken, 'dist', 'nodes', 'shared', 'pacing', 'policy.js'),
			'\n// eslint-disable-next-line\nsetTimeout(() => undefined, 1);\n',
		);
		const result = scan(broken, 'tarball');
		expect(result.code).toBe(1);
		expect(result.output).toMatch(/FAIL \(tarball\)[\s\S]*no-restricted-globals/);
	}, 120_000);
});
