/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * `npm run test:live -- [--writes] [--rate-limit] [--token-wait=S] [--update-shapes] [--emulator]
 * [--no-build]`: the live suite against the gateway of SELLER_PLATFORM_BASE_URL (default the
 * sandbox), see README.md. Without a credential it says so in one line and exits 0, before
 * building or loading anything. Otherwise it builds the package (not with `--no-build`), then
 * runs. `--emulator` starts a local emulator seeded as a sandbox project and runs everything
 * against it (CI). Exits 1 on a failed check or a shape that differs from test/live/shapes/
 * (unless `--update-shapes`, which rewrites them).
 */
import { execFileSync } from 'child_process';

import { startEmulator, type Emulator } from '../emulator';
import { compareShapes, readShapes, runSuite, writeShapes } from './suite';
import { emulatorVariables, readVariables, REQUIRED, type LiveVariables } from './variables';

const flag = (name: string) => process.argv.includes(`--${name}`);
/** `--token-wait=SECONDS`: how long the token probe waits (default 30 s; 1 s on the emulator). */
const tokenWait = process.argv.find((arg) => arg.startsWith('--token-wait='))?.split('=')[1];

async function main(): Promise<number> {
	const vars = flag('emulator') ? undefined : readVariables(process.env);
	if (vars && 'missing' in vars) {
		console.log(
			`test:live skipped: no sandbox credential (${vars.missing.join(', ')} not set; all of ${REQUIRED.length} needed, see test/live/README.md)`,
		);
		return 0;
	}
	if (!flag('no-build')) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
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
	console.log(`test:live against ${emulator ? 'a local emulator' : vars.baseUrl}`);
	const client = liveClient(vars);
	const options = {
		writes: flag('writes') || !!emulator,
		rateLimit: flag('rate-limit') || !!emulator,
		tokenWaitMs: Number(tokenWait ?? (emulator ? 1 : 30)) * 1000,
	};
	const report = await runSuite(client.call, vars, options, client.secrets, console.log);
	if (flag('update-shapes')) {
		writeShapes(report.shapes);
		console.log(`shapes written: ${report.shapes.map((shape) => shape.operation).join(', ')}`);
	} else {
		report.failures.push(...compareShapes(report.shapes, readShapes()));
	}
	for (const failure of report.failures) console.log(`FAIL ${failure}`);
	console.log(
		`test:live: ${report.failures.length ? `${report.failures.length} failed` : 'passed'}`,
	);
	return report.failures.length ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.log(`test:live failed: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	},
);
