/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * A real n8n (2.41.1 on Node 24, or 1.123.81 on Node 22: test/e2e/installs/, see install.js) with this
 * package installed from its npm tarball the way n8n installs community packages: in
 * `<data>/.n8n/nodes/node_modules`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
	createWriteStream,
	existsSync,
	mkdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { sleep } from './wait';

export const E2E_DIR = resolve(__dirname, '..');
export const REPO_ROOT = resolve(E2E_DIR, '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-seller-platform';

export type N8nMajor = 1 | 2;
/**
 * The n8n the e2e suite runs: `E2E_N8N=1` for n8n 1.123 (Node 22), else n8n 2.41.1 (Node 24). Each
 * has its own install folder and lock file (test/e2e/installs/n8n-<major>, see install.js).
 */
export const N8N_MAJOR: N8nMajor = (() => {
	const asked = process.env.E2E_N8N ?? '2';
	if (asked !== '1' && asked !== '2') throw new Error(`E2E_N8N is 1 or 2, not "${asked}"`);
	return asked === '1' ? 1 : 2;
})();

export interface N8nInstall {
	major: N8nMajor;
	/** The install folder (its package.json, lock file and node_modules). */
	dir: string;
	/** The Node.js it runs on. */
	node: string;
	/** n8n's command. */
	n8n: string;
}

// install.js is plain JavaScript, run with the machine's Node before anything is built.
const installer = require('../install.js') as { installOf(major: number): N8nInstall };

export function n8nInstall(major: N8nMajor = N8N_MAJOR): N8nInstall {
	const { dir, node, n8n } = installer.installOf(major);
	return { major, dir, node, n8n };
}

/** The version of n8n an install holds, as its package.json says. */
export function installedN8nVersion(major: N8nMajor = N8N_MAJOR): string {
	const manifest = join(n8nInstall(major).dir, 'node_modules', 'n8n', 'package.json');
	return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** Environment that keeps n8n on loopback and away from the network. */
export function n8nEnvironment(options: {
	dataDir: string;
	port: number;
	brokerPort: number;
	major?: N8nMajor;
}): NodeJS.ProcessEnv {
	const major = options.major ?? N8N_MAJOR;
	const url = `http://127.0.0.1:${options.port}/`;
	return {
		N8N_USER_FOLDER: options.dataDir,
		N8N_PORT: String(options.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: url,
		// n8n 1.x reads WEBHOOK_URL (2.x reads N8N_WEBHOOK_URL and warns about the old name).
		...(major >= 2 ? { N8N_WEBHOOK_URL: url } : { WEBHOOK_URL: url }),
		N8N_SECURE_COOKIE: 'false',
		// The task runner broker (default 5679) gets a port of its own, so several instances can run.
		N8N_RUNNERS_BROKER_PORT: String(options.brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		// No telemetry, no version checks, no template catalogue, no Python runner (no virtualenv here).
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_PYTHON_ENABLED: 'false',
		// 2.x: its only job is to fetch a catalogue of MCP servers from n8n's website. n8n 1.x has no
		// such module and refuses to start when an unknown module is named.
		...(major >= 2 ? { N8N_DISABLED_MODULES: 'mcp-registry' } : {}),
		// Task runners, on by default in 2.x, off in 1.x: the Code node then runs as in 2.x.
		N8N_RUNNERS_ENABLED: 'true',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		// The community-packages module loads <data>/.n8n/nodes/node_modules/n8n-nodes-*; it never
		// reaches for the registry unless someone installs a package from the UI.
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		// The barcode example reads a CSV from the examples folder.
		N8N_RESTRICT_FILE_ACCESS_TO: join(REPO_ROOT, 'examples'),
		DB_TYPE: 'sqlite',
		DB_SQLITE_POOL_SIZE: '2',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		GENERIC_TIMEZONE: 'UTC',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
		N8N_LOG_OUTPUT: 'console',
		NO_COLOR: '1',
	};
}

/**
 * `npm pack` of the built package into `.tmp/pack-<pid>`, once per process: the tarball's path.
 * A folder per process: CI runs the 2.x and 1.x suites side by side.
 */
let packed: string | undefined;
export function packPackage(): string {
	const distEntry = join(REPO_ROOT, 'dist', 'nodes', 'SellerPlatform', 'SellerPlatform.node.js');
	if (!existsSync(distEntry))
		throw new Error(`The package is not built (${distEntry} is missing): run npm run build`);
	if (packed && existsSync(packed)) return packed;
	const destination = join(REPO_ROOT, '.tmp', `pack-${process.pid}`);
	rmSync(destination, { recursive: true, force: true });
	mkdirSync(destination, { recursive: true });
	const output = execFileSync(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', destination],
		{ cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
	);
	const [{ filename }] = JSON.parse(output) as Array<{ filename: string }>;
	packed = join(destination, filename);
	return packed;
}

/**
 * Installs the package into `<data>/.n8n/nodes/node_modules` from its npm tarball, the way n8n's
 * community-packages service does: the tarball unpacked into the package's folder, its dev, peer
 * and optional dependencies removed from its package.json, then `npm install` in that folder with
 * install scripts off (and `--omit=dev`). The package has no dependencies, so nothing is fetched;
 * `n8n-workflow` and `luxon` then resolve to n8n's own copies (n8n puts its node_modules on
 * NODE_PATH) — as long as the data folder is outside this repository. Inside it, Node would find
 * the repository's development copies first, so `n8n-workflow` is linked to n8n's own copy there
 * (the nodes and n8n must share one).
 */
export function installPackageInto(dataDir: string, major: N8nMajor = N8N_MAJOR): string {
	const tarball = packPackage();
	const nodeModules = join(dataDir, '.n8n', 'nodes', 'node_modules');
	const target = join(nodeModules, PACKAGE_NAME);
	rmSync(target, { recursive: true, force: true });
	mkdirSync(target, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
	const manifestFile = join(target, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
	delete manifest.devDependencies;
	delete manifest.peerDependencies;
	delete manifest.optionalDependencies;
	writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
	execFileSync(
		'npm',
		[
			'install',
			'--omit=dev',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
		],
		{ cwd: target, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	const workflowLink = join(nodeModules, 'n8n-workflow');
	rmSync(workflowLink, { recursive: true, force: true });
	if (!relative(REPO_ROOT, dataDir).startsWith('..')) {
		symlinkSync(join(n8nInstall(major).dir, 'node_modules', 'n8n-workflow'), workflowLink, 'dir');
	}
	return target;
}

/** A free TCP port on loopback. */
export async function freePort(preferred = 0): Promise<number> {
	const tryPort = (port: number) =>
		new Promise<number>((resolvePort, reject) => {
			const server = createServer();
			server.unref();
			server.once('error', reject);
			server.listen(port, '127.0.0.1', () => {
				const address = server.address();
				const chosen = typeof address === 'object' && address ? address.port : port;
				server.close(() => resolvePort(chosen));
			});
		});
	if (preferred) {
		try {
			return await tryPort(preferred);
		} catch {
			// taken: any free port
		}
	}
	return await tryPort(0);
}

export interface N8nInstance {
	baseUrl: string;
	port: number;
	dataDir: string;
	process: ChildProcess;
	/** Everything n8n printed so far (also written to `logFile` when given). */
	output(): string;
	stop(): Promise<void>;
}

export interface StartN8nOptions {
	/** The n8n major version (default: N8N_MAJOR, from E2E_N8N). */
	major?: N8nMajor;
	/** `start` (the main process, default), `worker` or `webhook` (queue mode). */
	command?: 'start' | 'worker' | 'webhook';
	dataDir: string;
	port: number;
	brokerPort?: number;
	env?: NodeJS.ProcessEnv;
	/** Where n8n's output goes besides memory. */
	logFile?: string;
	/** Echo n8n's output to this process's stdout. */
	echo?: boolean;
	readyTimeoutMs?: number;
	/** Called with n8n's process as soon as it is spawned, before it is ready (the soak kills it). */
	onSpawn?: (child: ChildProcess) => void;
}

/**
 * Starts `n8n start` (or a worker or webhook process) of the chosen major version on its Node, in its
 * own process group, and waits until it is ready.
 */
export async function startN8n(options: StartN8nOptions): Promise<N8nInstance> {
	const install = n8nInstall(options.major);
	if (!existsSync(install.node) || !existsSync(install.n8n)) {
		throw new Error(
			`n8n ${install.major}.x is not installed in ${install.dir}: run node test/e2e/install.js --n8n ${install.major}`,
		);
	}
	mkdirSync(options.dataDir, { recursive: true });
	const brokerPort = options.brokerPort ?? (await freePort());
	const env: NodeJS.ProcessEnv = {
		// Only what n8n needs from this environment (not npm's variables, nor the caller's N8N_* ones).
		// Its Node first: n8n starts its task runner as plain `node`.
		PATH: `${join(install.node, '..')}:${process.env.PATH ?? ''}`,
		HOME: process.env.HOME,
		LANG: process.env.LANG ?? 'C.UTF-8',
		TMPDIR: process.env.TMPDIR,
		...n8nEnvironment({
			dataDir: options.dataDir,
			port: options.port,
			brokerPort,
			major: install.major,
		}),
		...options.env,
	};
	for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
	const command = options.command ?? 'start';
	const child = spawn(install.node, [install.n8n, command], {
		cwd: REPO_ROOT,
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	options.onSpawn?.(child);
	let output = '';
	const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
	const onData = (chunk: Buffer) => {
		const text = chunk.toString();
		output += text;
		if (output.length > 2_000_000) output = output.slice(-1_000_000);
		log?.write(text);
		if (options.echo) process.stdout.write(text);
	};
	child.stdout?.on('data', onData);
	child.stderr?.on('data', onData);
	let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	const exitPromise = new Promise<void>((resolveExit) =>
		child.once('exit', (code, signal) => {
			exited = { code, signal };
			log?.end();
			resolveExit();
		}),
	);
	// If this process goes away without stopping n8n, take n8n (and its task runner) along.
	const killGroup = () => {
		try {
			if (child.pid && !exited) process.kill(-child.pid, 'SIGKILL');
		} catch {
			// already gone
		}
	};
	process.once('exit', killGroup);

	const baseUrl = `http://127.0.0.1:${options.port}`;
	const instance: N8nInstance = {
		baseUrl,
		port: options.port,
		dataDir: options.dataDir,
		process: child,
		output: () => output,
		async stop() {
			process.removeListener('exit', killGroup);
			if (exited || !child.pid) return;
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {
				return;
			}
			const timeout = sleep(30_000).then(() => 'timeout');
			if ((await Promise.race([exitPromise.then(() => 'exited'), timeout])) === 'timeout')
				killGroup();
			await exitPromise;
			// The task runner is in the same group; make sure nothing of it stays behind.
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {
				// the group is empty
			}
		},
	};

	const deadline = Date.now() + (options.readyTimeoutMs ?? 180_000);
	while (Date.now() < deadline) {
		if (exited) {
			throw new Error(
				`n8n exited during start-up (code ${exited.code}, signal ${exited.signal}). Its output:\n${output.slice(-4000)}`,
			);
		}
		try {
			if (command === 'worker') {
				if (/n8n worker is now ready/.test(output)) return instance;
			} else if (command === 'webhook') {
				if (/Webhook listener waiting for requests/.test(output)) return instance;
			} else {
				const ready = await fetch(`${baseUrl}/healthz/readiness`);
				if (ready.ok) {
					const settings = await fetch(`${baseUrl}/rest/settings`);
					if (settings.ok && /Editor is now accessible/.test(output)) return instance;
				}
			}
		} catch {
			// not listening yet
		}
		await sleep(500);
	}
	await instance.stop();
	throw new Error(`n8n did not become ready in time. Its output:\n${output.slice(-4000)}`);
}
