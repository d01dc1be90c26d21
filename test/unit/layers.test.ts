/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The package's layers, read from the source's own imports:
 *
 *   credentials/  nodes/SellerPlatform/  nodes/SellerPlatformTrigger/
 *          \               |                    /
 *           ------->   nodes/api/   <-----------
 *
 * The two nodes and the credential depend on the API layer; the API layer depends on none of them;
 * neither the credential nor the trigger reaches into the action node. Process-wide state lives in
 * nodes/api/state.ts only.
 */
import { readdirSync, readFileSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';
import * as ts from 'typescript';

const ROOT = resolve(__dirname, '../..');

function sourceFiles(folder: string): string[] {
	return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

const PRODUCT = [...sourceFiles('credentials'), ...sourceFiles('nodes')];

/** The repository paths a file imports (relative imports only; packages are left out). */
function localImports(file: string): string[] {
	const text = readFileSync(join(ROOT, file), 'utf8');
	const specifiers = [
		...text.matchAll(/(?:from|import|require\()\s*['"](\.{1,2}\/[^'"]+)['"]/g),
	].map((match) => match[1]);
	return specifiers.map((specifier) => relative(ROOT, resolve(ROOT, dirname(file), specifier)));
}

/** Every function of a file (declarations, methods, arrows, callbacks) longer than `limit` lines. */
function longFunctions(file: string, text: string, limit: number): string[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
	const long: string[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const first = lineOf(node.getStart(source));
			const lines = lineOf(node.getEnd()) - first + 1;
			if (lines > limit) long.push(`${file}:${first} (${lines} lines)`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return long;
}

const MAX_FUNCTION_LINES = 60;

const layerOf = (path: string) =>
	path.startsWith('nodes/api/') || path === 'nodes/api'
		? 'api'
		: path.startsWith('nodes/SellerPlatformTrigger/')
			? 'trigger'
			: path.startsWith('nodes/SellerPlatform/')
				? 'action node'
				: path.startsWith('credentials/')
					? 'credential'
					: path;

/** Which layer may import which. */
const ALLOWED: Record<string, string[]> = {
	api: ['api', 'package.json'],
	credential: ['api', 'credential'],
	trigger: ['api', 'trigger'],
	'action node': ['api', 'action node'],
};

describe('layers', () => {
	it('finds the product files and their imports', () => {
		expect(PRODUCT).toEqual(
			expect.arrayContaining([
				'credentials/SellerPlatformApi.credentials.ts',
				'nodes/SellerPlatform/SellerPlatform.node.ts',
				'nodes/SellerPlatformTrigger/SellerPlatformTrigger.node.ts',
				'nodes/api/request.ts',
			]),
		);
		expect(localImports('nodes/SellerPlatformTrigger/registration.ts')).toContain(
			'nodes/api/request',
		);
	});

	it.each(PRODUCT)('%s imports only what its layer may', (file) => {
		const wrong = localImports(file).filter(
			(target) => !ALLOWED[layerOf(file)].includes(layerOf(target)),
		);
		expect(wrong).toEqual([]);
	});

	it('would catch a credential or trigger importing an action file, or the API layer importing a node', () => {
		expect(ALLOWED.credential).not.toContain(layerOf('nodes/SellerPlatform/actions/router'));
		expect(ALLOWED.trigger).not.toContain(
			layerOf('nodes/SellerPlatform/actions/destination/update.operation'),
		);
		expect(ALLOWED.api).not.toContain(
			layerOf('nodes/SellerPlatformTrigger/SellerPlatformTrigger.node'),
		);
		expect(ALLOWED.api).not.toContain(layerOf('credentials/SellerPlatformApi.credentials'));
	});

	it('keeps module-level state in nodes/api/state.ts only', () => {
		const stateful = PRODUCT.filter((file) =>
			/^(export )?(let |var |const \w+(: [^=]+)? = new (Weak)?(Map|Set)(<[^>]*>)?\(\))/m.test(
				readFileSync(join(ROOT, file), 'utf8'),
			),
		);
		expect(stateful).toEqual(['nodes/api/state.ts']);
	});

	it('keeps every product file at most 300 lines', () => {
		const long = PRODUCT.filter(
			(file) => readFileSync(join(ROOT, file), 'utf8').split('\n').length > 300,
		);
		expect(long).toEqual([]);
	});

	it(`keeps every product function at most ${MAX_FUNCTION_LINES} lines`, () => {
		const long = PRODUCT.flatMap((file) =>
			longFunctions(file, readFileSync(join(ROOT, file), 'utf8'), MAX_FUNCTION_LINES),
		);
		expect(long).toEqual([]);
	});

	it('would catch a long function, an arrow or a callback as well', () => {
		const body = Array.from({ length: 61 }, (_, i) => `\tconst v${i} = ${i};`).join('\n');
		expect(longFunctions('a.ts', `function f() {\n${body}\n}`, 60)).toEqual(['a.ts:1 (63 lines)']);
		expect(longFunctions('b.ts', `export const g = run(() => {\n${body}\n});`, 60)).toHaveLength(1);
		expect(longFunctions('c.ts', `function h() {\n\treturn 1;\n}`, 60)).toEqual([]);
	});
});

describe("the tests' one copy of the package", () => {
	/** The .ts files under `folder`, without installed packages (test/e2e/installs). */
	function testFiles(folder: string): string[] {
		return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
			const path = join(folder, entry.name);
			if (entry.isDirectory()) {
				return entry.name === 'node_modules' || path === join('test', 'e2e', 'installs')
					? []
					: testFiles(path);
			}
			return entry.name.endsWith('.ts') ? [path] : [];
		});
	}

	it('is the compiled one in dist/, as n8n loads it: no test imports nodes/ or credentials/', () => {
		const sourceImports = testFiles('test').flatMap((file) =>
			localImports(file)
				.filter((path) => /^(nodes|credentials)(\/|$)/.test(path))
				.map((path) => `${file} imports ${path}`),
		);
		expect(sourceImports).toEqual([]);
	});
});
