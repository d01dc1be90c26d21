/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * What `npm start` and the end-to-end tests do to a fresh n8n: an owner account, the Seller
 * Platform credential pointing at the emulator, and the example workflows.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Emulator } from '../../emulator';
import {
	N8nClient,
	type Owner,
	type StoredCredential,
	type StoredWorkflow,
	type WorkflowJson,
} from './client';
import { REPO_ROOT } from './n8n';

export const CREDENTIAL_TYPE = 'sellerPlatformApi';
/** The credential `npm start` creates; the example workflows refer to it by this name. */
export const CREDENTIAL_NAME = 'Seller Platform (emulator)';
export const TRIGGER_TYPE = 'n8n-nodes-seller-platform.sellerPlatformTrigger';
export const NODE_TYPE = 'n8n-nodes-seller-platform.sellerPlatform';
/** The AI-agent tool n8n generates from the node (it has `usableAsTool`). */
export const TOOL_TYPE = 'n8n-nodes-seller-platform.sellerPlatformTool';
export const EXAMPLES_DIR = join(REPO_ROOT, 'examples');

/** The credential's fields for the emulator's provisioned key. */
export function emulatorCredentialData(
	emulator: Pick<Emulator, 'baseUrl' | 'credential'>,
): Record<string, string> {
	return {
		baseUrl: emulator.baseUrl,
		keyId: emulator.credential.key_id,
		privateKey: emulator.credential.private_key,
		projectCode: emulator.credential.project_code,
	};
}

/**
 * Signs in as the owner: creates the owner account on a fresh instance (no sign-up form for the
 * user), or logs in with the one saved in `ownerFile` by an earlier start.
 */
export async function ensureOwner(client: N8nClient, ownerFile: string): Promise<Owner> {
	if (await client.needsOwnerSetup()) {
		const owner: Owner = {
			email: 'owner@seller-platform.local',
			firstName: 'Local',
			lastName: 'Owner',
			// n8n wants 8+ characters with a digit and a capital letter.
			password: `Local-${randomBytes(9).toString('base64url')}-7Q`,
		};
		await client.setupOwner(owner);
		writeFileSync(ownerFile, `${JSON.stringify(owner, null, 2)}\n`, { mode: 0o600 });
		return owner;
	}
	if (!existsSync(ownerFile)) {
		throw new Error(
			`This n8n already has an owner, but ${ownerFile} (its sign-in) is missing. Delete the data folder to start afresh.`,
		);
	}
	const owner = JSON.parse(readFileSync(ownerFile, 'utf8')) as Owner;
	await client.login(owner.email, owner.password);
	return owner;
}

/** Creates the emulator credential, or updates it to the emulator's current key. */
export async function upsertCredential(
	client: N8nClient,
	data: Record<string, string>,
	name = CREDENTIAL_NAME,
): Promise<StoredCredential> {
	const existing = (await client.credentials()).find(
		(c) => c.name === name && c.type === CREDENTIAL_TYPE,
	);
	if (existing) return await client.updateCredential(existing.id, name, CREDENTIAL_TYPE, data);
	return await client.createCredential(name, CREDENTIAL_TYPE, data);
}

export interface Example {
	file: string;
	workflow: WorkflowJson;
}

/** The example workflows of `examples/` (every `*.json`), in file-name order. */
export function loadExamples(): Example[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			workflow: JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as WorkflowJson,
		}));
}

/** The workflow with every Seller Platform credential reference pointed at `credential`. */
export function withCredential(workflow: WorkflowJson, credential: StoredCredential): WorkflowJson {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.credentials?.[CREDENTIAL_TYPE]
				? {
						...node,
						credentials: {
							...node.credentials,
							[CREDENTIAL_TYPE]: { id: credential.id, name: credential.name },
						},
					}
				: node,
		),
	};
}

/** The node type that reads a file from n8n's disk (Read/Write Files from Disk). */
export const READ_FILE_TYPE = 'n8n-nodes-base.readWriteFile';

/**
 * A copy of the workflow whose Read/Write Files from Disk node reads `path` instead (a file of
 * the test's own, where n8n may read: `N8N_RESTRICT_FILE_ACCESS_TO`), named apart.
 */
export function readingFile(workflow: WorkflowJson, path: string, name: string): WorkflowJson {
	const readers = workflow.nodes.filter((node) => node.type === READ_FILE_TYPE);
	if (readers.length !== 1)
		throw new Error(`${workflow.name}: ${readers.length} file readers, not one`);
	return {
		...workflow,
		name,
		nodes: workflow.nodes.map((node) =>
			node === readers[0]
				? { ...node, parameters: { ...node.parameters, fileSelector: path } }
				: node,
		),
	};
}

/**
 * Imports the examples that are not there yet (by name), as the editor's "Import from File" would,
 * bound to `credential`. Returns every example's stored workflow, by file name.
 */
export async function importExamples(
	client: N8nClient,
	credential: StoredCredential,
): Promise<Map<string, StoredWorkflow>> {
	const existing = await client.workflows();
	const result = new Map<string, StoredWorkflow>();
	for (const { file, workflow } of loadExamples()) {
		const found = existing.find(
			(w) => w.name === workflow.name && !(w as { isArchived?: boolean }).isArchived,
		);
		const stored = found
			? await client.workflow(found.id)
			: await client.createWorkflow(withCredential(workflow, credential));
		result.set(file, stored);
	}
	return result;
}

/**
 * (Re)activates the workflows that start with the Seller Platform Trigger and should be active, so
 * they take over their destination with the credential's current key (the emulator makes a new
 * key at every start, so an activation made at n8n's own start-up used the old one).
 */
export async function reactivateTriggers(
	client: N8nClient,
	workflows: StoredWorkflow[],
): Promise<StoredWorkflow[]> {
	const activated: StoredWorkflow[] = [];
	for (const summary of workflows) {
		const workflow = await client.workflow(summary.id);
		if (!workflow.nodes.some((node) => node.type === TRIGGER_TYPE)) continue;
		if (workflow.active) await client.deactivate(workflow.id).catch(() => undefined);
		activated.push(await client.activate(workflow.id));
	}
	return activated;
}
