/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * `npm run test:live -- [--writes] [--rate-limit] [--token-wait=S] [--update-shapes] [--emulator]
 * [--no-build] [--deadline=S] [--allow-writes-to=HOST]`: the live suite against the gateway of
 * SELLER_PLATFORM_BASE_URL (default the sandbox), see README.md. Without any of its variables it
 * says so in one line and exits 0; with some but not all, it fails naming those missing; writes or
 * the 429 probe against a host other than the sandbox (or a local one) are refused unless
 * `--allow-writes-to` names it. All of that before building or loading anything. Otherwise it
 * builds the package (not with `--no-build`), then runs, each request within 30 s and the whole
 * run within `--deadline` (default 900 s). `--emulator` starts a local emulator seeded as a sandbox
 * project and runs everything against it (CI). Exits 1 on a failed check, a shape that differs
 * from test/live/shapes/ (unless `--update-shapes`, which rewrites them), or a run that could not
 * finish, always with one line saying why and no value in it.
 */
import { execFileSync } from 'child_process';

import { startEmulator, type Emulator } from '../emulator';
import { plainText } from './safe';
import { compareShapes, readShapes, runSuite, updateShapes } from './suite';
import {
	emulatorVariables,
	hostOf,
	readVariables,
	writesRefusal,
	type LiveVariables,
} from './variables';

const flag = (name: string) => process.argv.includes(`--${name}`);
const valueOf = (name: string) =>
	process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
/** `--token-wait=SECONDS`: how long the token probe waits (default 30 s; 1 s on the emulator). */
const tokenWait = valueOf('token-wait');
/** `--deadline=SECONDS`: the whole run's (default 900 s: the probes wait up to about 3 minutes). */
const DEADLINE_S = Number(valueOf('deadline') ?? 900);

/** The run's secrets once known (the credential's and its session's): cut out of a crash's line. */
let secrets: () => string[] = () => [];

async function main(): Promise<number> {
	const vars = flag('emulator') ? undefined : readVariables(process.env);
	if (vars && 'skip' in vars) return (console.log(vars.skip), 0);
	if (vars && 'fail' in vars) return (console.log(vars.fail), 1);
	const wanted = { writes: flag('writes'), rateLimit: flag('rate-limit') };
	const refusal = vars && writesRefusal(vars.baseUrl, wanted, valueOf('allow-writes-to'));
	if (refusal) return (console.log(refusal), 1);
	if (!(DEADLINE_S > 0))
		return (console.log('test:live failed: --deadline must be seconds > 0'), 1);
	if (!flag('no-build')) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
	setTimeout(() => {
		console.log(`test:live failed: the run did not end within ${DEADLINE_S} s (--deadline)`);
		process.exit(1);
	}, DEADLINE_S * 1000).unref();
	if (vars) return await runAgainst(vars);
	const emulator = await startEmulator();
	try {
		return await runAgainst(emulatorVariables(emulator), emulator);
	} finally {
		await emulator.close();
	}
}

async function runAgainst(vars: LiveVariables, emulator?: Emulator): Promise<number> {
	// Loaded after the build: the client runs the package from dist/.
	const { liveClient } = await import('./client');
	console.log(`test:live against ${emulator ? 'a local emulator' : hostOf(vars.baseUrl)}`);
	const client = liveClient(vars);
	secrets = client.secrets;
	const options = {
		writes: flag('writes') || !!emulator,
		rateLimit: flag('rate-limit') || !!emulator,
		tokenWaitMs: Number(tokenWait ?? (emulator ? 1 : 30)) * 1000,
	};
	const report = await runSuite(client.call, vars, options, client.secrets, console.log);
	if (flag('update-shapes')) console.log(updateShapes(report));
	else report.failures.push(...compareShapes(report.shapes, readShapes()));
	for (const failure of report.failures) console.log(`FAIL ${failure}`);
	console.log(
		`test:live: ${report.failures.length ? `${report.failures.length} failed` : 'passed'}`,
	);
	return report.failures.length ? 1 : 0;
}

/** One line, whatever failed: its reason's plain words (safe.ts), never a stack. */
function crashed(error: unknown): never {
	const { operation, reason, message } = (error ?? {}) as Record<string, unknown>;
	const text = typeof reason === 'string' ? reason : String(message ?? error);
	const where = typeof operation === 'string' ? `${operation}: ` : '';
	console.log(`test:live failed: ${where}${plainText(text, safeSecrets()) || 'no reason given'}`);
	process.exit(1);
}

function safeSecrets(): string[] {
	try {
		return secrets();
	} catch {
		return [];
	}
}

process.on('uncaughtException', crashed);
process.on('unhandledRejection', crashed);
main().then((code) => process.exit(code), crashed);
