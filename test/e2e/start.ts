/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * `npm start`: the Seller Platform API emulator and a local n8n with this package, a ready
 * credential and the example workflows, on loopback, no account anywhere. Ctrl+C stops both.
 *
 * Environment: N8N_PORT (default 5678), EMULATOR_PORT (default 8787); a port that is taken is
 * replaced by a free one. The n8n data (database, owner sign-in, log) stays in .tmp/n8n between
 * starts: delete that folder to start afresh.
 */
import { join, relative } from 'node:path';

import { REPO_ROOT } from './lib/n8n';
import { CREDENTIAL_NAME } from './lib/setup';
import { startStack, type Stack } from './lib/stack';

const DATA_DIR = join(REPO_ROOT, '.tmp', 'n8n');
const rel = (path: string) => relative(process.cwd(), path) || '.';

async function main(): Promise<void> {
	let stack: Stack | undefined;
	let stopping = false;
	const stop = async (reason: string, code = 0) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${reason}: stopping n8n and the emulator...`);
		await stack?.stop();
		process.exit(code);
	};
	process.on('SIGINT', () => void stop('SIGINT'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
	process.on('SIGHUP', () => void stop('SIGHUP'));

	try {
		stack = await startStack({
			dataDir: DATA_DIR,
			n8nPort: Number(process.env.N8N_PORT ?? 5678),
			emulatorPort: Number(process.env.EMULATOR_PORT ?? 8787),
			activateTriggers: true,
			log: (message) => console.log(message),
		});
	} catch (error) {
		console.error(`npm start failed: ${(error as Error).message}`);
		await stop('error', 1);
		return;
	}
	const { emulator, n8n, owner, examples, activeTriggers } = stack;
	const credentialFile = join(REPO_ROOT, '.tmp', 'emulator-credential.json');
	console.log(`
n8n with n8n-nodes-seller-platform is ready.

  Editor:      ${n8n.baseUrl}
  Sign in:     ${owner.email}
  Password:    ${owner.password}

  Credential:  "${CREDENTIAL_NAME}" (type Seller Platform API), Base URL ${emulator.baseUrl}
               key id ${emulator.credential.key_id}, project ${emulator.credential.project_code}
               (the emulator's throw-away key, new at every start; also in ${rel(credentialFile)})
  Examples:    ${[...examples.values()]
		.map(
			(w) =>
				`${w.name}\n                 ${n8n.baseUrl}/workflow/${w.id}${activeTriggers.some((a) => a.id === w.id) ? "  (active: listens for the emulator's events)" : ''}`,
		)
		.join('\n               ')}

  Emulator:    ${emulator.baseUrl}  (control API: ${emulator.controlUrl}/stats, /requests, /destinations, /deliveries, ...)
  Data:        ${rel(DATA_DIR)} (n8n.log, owner.json; delete the folder to start afresh)

Press Ctrl+C to stop n8n and the emulator.`);
}

void main();
