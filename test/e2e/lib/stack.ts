/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The emulator and a local n8n with the package, the owner signed in, the emulator credential and
 * the example workflows: what `npm start` and `npm run screenshots` bring up.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator';
import { N8nClient, type Owner, type StoredCredential, type StoredWorkflow } from './client';
import { freePort, installPackageInto, REPO_ROOT, startN8n, type N8nInstance } from './n8n';
import {
	emulatorCredentialData,
	ensureOwner,
	importExamples,
	reactivateTriggers,
	TRIGGER_TYPE,
	upsertCredential,
} from './setup';

export interface Stack {
	emulator: Emulator;
	n8n: N8nInstance;
	client: N8nClient;
	owner: Owner;
	credential: StoredCredential;
	/** Example workflows by file name. */
	examples: Map<string, StoredWorkflow>;
	/** Trigger examples that are active (they took over their destination). */
	activeTriggers: StoredWorkflow[];
	stop(): Promise<void>;
}

export interface StackOptions {
	dataDir: string;
	/** Preferred ports; a taken one is replaced by a free one. 0: any free port. */
	n8nPort?: number;
	emulatorPort?: number;
	emulator?: EmulatorOptions;
	activateTriggers?: boolean;
	log?: (message: string) => void;
}

export async function startStack(options: StackOptions): Promise<Stack> {
	const log = options.log ?? (() => undefined);
	mkdirSync(options.dataDir, { recursive: true });
	let emulator: Emulator | undefined;
	let n8n: N8nInstance | undefined;
	const stop = async () => {
		await n8n?.stop().catch((error) => console.error('stopping n8n:', error));
		await emulator?.close().catch((error) => console.error('closing the emulator:', error));
	};
	try {
		emulator = await startEmulator({
			host: '127.0.0.1',
			credentialFile: join(REPO_ROOT, '.tmp', 'emulator-credential.json'),
			...options.emulator,
			port: await freePort(options.emulatorPort ?? 0),
		});
		log(`Seller Platform API emulator: ${emulator.baseUrl}`);

		// npm start and the screenshots use n8n 2.x, whatever E2E_N8N says.
		installPackageInto(options.dataDir, 2);
		const port = await freePort(options.n8nPort ?? 0);
		const logFile = join(options.dataDir, 'n8n.log');
		log(`Starting n8n on http://127.0.0.1:${port} (data ${options.dataDir}, log ${logFile}) ...`);
		n8n = await startN8n({ major: 2, dataDir: options.dataDir, port, logFile });

		const client = new N8nClient(n8n.baseUrl);
		const owner = await ensureOwner(client, join(options.dataDir, 'owner.json'));
		const credential = await upsertCredential(client, emulatorCredentialData(emulator));
		const examples = await importExamples(client, credential);
		let activeTriggers: StoredWorkflow[] = [];
		if (options.activateTriggers) {
			const triggers = [...examples.values()].filter((w) =>
				w.nodes.some((node) => node.type === TRIGGER_TYPE),
			);
			activeTriggers = await reactivateTriggers(client, triggers).catch((error) => {
				log(`Could not activate the trigger example: ${(error as Error).message}`);
				return [];
			});
		}
		return { emulator, n8n, client, owner, credential, examples, activeTriggers, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
