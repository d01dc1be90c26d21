/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * n8n's REST API (the one its editor uses), on loopback, with the owner's session cookie.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { n8nInstall } from './n8n';
import { sleep } from './wait';

// n8n sends execution data as `flatted` JSON; use n8n's own copy of the library (loaded on first
// use, so that a missing install is reported by startN8n, with what to run).
let flattedParse: ((text: string) => unknown) | undefined;
function parseFlatted(text: string): unknown {
	flattedParse ??= (
		createRequire(join(n8nInstall().dir, 'package.json'))('flatted') as {
			parse(text: string): unknown;
		}
	).parse;
	return flattedParse(text);
}

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export interface CredentialData {
	baseUrl: string;
	keyId: string;
	privateKey: string;
	projectCode: string;
	[key: string]: unknown;
}

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
}

export interface WorkflowNode {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	[key: string]: unknown;
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	pinData?: Record<string, unknown>;
	meta?: Record<string, unknown>;
	tags?: unknown[];
	active?: boolean;
	[key: string]: unknown;
}

export interface StoredWorkflow extends WorkflowJson {
	id: string;
	versionId: string;
	active: boolean;
	activeVersionId?: string | null;
}

/** A binary file of an item: in n8n's binary data store (`id`), or in the data itself (1.x, in memory). */
export interface BinaryRef {
	fileName?: string;
	mimeType?: string;
	id?: string;
	data?: string;
}

export interface NodeRun {
	startTime: number;
	executionTime: number;
	executionStatus?: string;
	error?: { message: string; description?: string };
	/** What the node told the user after its run (`addExecutionHints`). */
	hints?: Array<{ message: string; type?: string; location?: string }>;
	data?: {
		main?: Array<Array<{
			json: Record<string, unknown>;
			binary?: Record<string, BinaryRef>;
		}> | null>;
	};
}

export interface Execution {
	id: string;
	finished: boolean;
	mode: string;
	status: string;
	workflowId: string;
	startedAt: string;
	stoppedAt?: string;
	data: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			error?: { message: string; description?: string };
			lastNodeExecuted?: string;
		};
	};
}

export class N8nRestError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly body: unknown,
	) {
		super(message);
	}
}

export class N8nClient {
	private cookie = '';

	constructor(readonly baseUrl: string) {}

	async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: {
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...(this.cookie ? { cookie: this.cookie } : {}),
				accept: 'application/json',
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = response.headers.getSetCookie?.() ?? [];
		const auth = setCookie.find((cookie) => cookie.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			// not JSON
		}
		if (!response.ok) {
			const message =
				parsed && typeof parsed === 'object' && 'message' in parsed
					? String((parsed as { message: unknown }).message)
					: text;
			throw new N8nRestError(
				`${method} ${path}: HTTP ${response.status}: ${message}`,
				response.status,
				parsed,
			);
		}
		return (
			parsed && typeof parsed === 'object' && 'data' in parsed
				? (parsed as { data: T }).data
				: parsed
		) as T;
	}

	/** The session cookie (`n8n-auth=…`), for a browser. */
	get authCookie(): string {
		return this.cookie;
	}

	/** Whether the instance still shows the owner sign-up form. */
	async needsOwnerSetup(): Promise<boolean> {
		const settings = await this.request<{ userManagement: { showSetupOnFirstLoad?: boolean } }>(
			'GET',
			'/rest/settings',
		);
		return settings.userManagement.showSetupOnFirstLoad === true;
	}

	async setupOwner(owner: Owner): Promise<void> {
		await this.request('POST', '/rest/owner/setup', owner);
	}

	async login(email: string, password: string): Promise<void> {
		await this.request('POST', '/rest/login', { emailOrLdapLoginId: email, password });
	}

	/**
	 * Settings → Users → Invite (the owner's session): a member account waiting for its sign-up.
	 * Without an SMTP server n8n answers the invitation's accept URL (both lines).
	 */
	async inviteMember(email: string): Promise<string> {
		const [invited] = await this.request<
			Array<{ user: { inviteAcceptUrl?: string }; error?: string }>
		>('POST', '/rest/invitations', [{ email, role: 'global:member' }]);
		if (!invited?.user.inviteAcceptUrl)
			throw new Error(`n8n gave no invitation link for ${email}: ${JSON.stringify(invited)}`);
		return invited.user.inviteAcceptUrl;
	}

	/**
	 * The sign-up page of an invitation (`inviteAcceptUrl`), as the invitee fills it in: this
	 * client then has the new member's session. n8n 2.x signs the invitation (`?token=`,
	 * `POST /rest/invitations/accept`); 1.x names both users (`?inviterId=&inviteeId=`,
	 * `POST /rest/invitations/:inviteeId/accept`).
	 */
	async acceptInvitation(inviteAcceptUrl: string, person: Omit<Owner, 'email'>): Promise<void> {
		const query = new URL(inviteAcceptUrl).searchParams;
		const token = query.get('token');
		if (token) {
			await this.request('POST', '/rest/invitations/accept', { token, ...person });
			return;
		}
		const inviteeId = query.get('inviteeId') ?? '';
		await this.request('POST', `/rest/invitations/${encodeURIComponent(inviteeId)}/accept`, {
			inviterId: query.get('inviterId'),
			...person,
		});
	}

	/** Node and credential types n8n knows (what the editor loads). */
	async nodeTypeNames(): Promise<string[]> {
		return ((await this.request<Array<{ name: string }>>('GET', '/types/nodes.json')) ?? []).map(
			(type) => type.name,
		);
	}

	async credentialTypeNames(): Promise<string[]> {
		return (
			(await this.request<Array<{ name: string }>>('GET', '/types/credentials.json')) ?? []
		).map((type) => type.name);
	}

	async credentials(): Promise<StoredCredential[]> {
		return await this.request<StoredCredential[]>('GET', '/rest/credentials');
	}

	async createCredential(
		name: string,
		type: string,
		data: Record<string, unknown>,
	): Promise<StoredCredential> {
		return await this.request<StoredCredential>('POST', '/rest/credentials', { name, type, data });
	}

	async updateCredential(
		id: string,
		name: string,
		type: string,
		data: Record<string, unknown>,
	): Promise<StoredCredential> {
		return await this.request<StoredCredential>('PATCH', `/rest/credentials/${id}`, {
			name,
			type,
			data,
		});
	}

	/** The credential form's "Test" button: tests the stored credential with the form's values. */
	async testCredential(
		credential: StoredCredential,
		data: Record<string, unknown>,
	): Promise<{ status: string; message: string }> {
		return await this.request('POST', '/rest/credentials/test', {
			credentials: { id: credential.id, name: credential.name, type: credential.type, data },
		});
	}

	async workflows(): Promise<StoredWorkflow[]> {
		return await this.request<StoredWorkflow[]>('GET', '/rest/workflows');
	}

	async workflow(id: string): Promise<StoredWorkflow> {
		return await this.request<StoredWorkflow>('GET', `/rest/workflows/${id}`);
	}

	async createWorkflow(workflow: WorkflowJson): Promise<StoredWorkflow> {
		const { id: _id, active: _active, ...body } = workflow;
		// n8n 1.x needs `active` (its column has no default); 2.x ignores it.
		return await this.request<StoredWorkflow>('POST', '/rest/workflows', {
			...body,
			active: false,
			settings: body.settings ?? {},
		});
	}

	async activate(id: string): Promise<StoredWorkflow> {
		const { versionId } = await this.workflow(id);
		return await this.request<StoredWorkflow>('POST', `/rest/workflows/${id}/activate`, {
			versionId,
		});
	}

	async deactivate(id: string): Promise<StoredWorkflow> {
		return await this.request<StoredWorkflow>('POST', `/rest/workflows/${id}/deactivate`, {});
	}

	/** The editor's "Execute workflow" button, from the named trigger; returns the execution id. */
	async run(workflow: StoredWorkflow, triggerName?: string): Promise<string> {
		const trigger =
			triggerName ??
			workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger')?.name ??
			workflow.nodes[0].name;
		const result = await this.request<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/rest/workflows/${workflow.id}/run`,
			await this.runBody(workflow.id, trigger),
		);
		if (!result.executionId)
			throw new Error(`n8n did not start ${workflow.name}: ${JSON.stringify(result)}`);
		return result.executionId;
	}

	/**
	 * The editor's "Listen for test event" on a webhook trigger (its "Execute workflow" from that
	 * trigger): n8n registers the trigger's test webhook (`/webhook-test/…`) and answers
	 * `{ waitingForWebhook: true }`, or fails the request when the registration fails.
	 */
	async listenForTestEvent(
		workflow: StoredWorkflow,
		triggerName: string,
	): Promise<{ executionId?: string; waitingForWebhook?: boolean }> {
		return await this.request(
			'POST',
			`/rest/workflows/${workflow.id}/run`,
			await this.runBody(workflow.id, triggerName),
		);
	}

	/**
	 * The body of the editor's run request: the trigger to start from and the workflow as saved.
	 * n8n 1.x runs the `workflowData` it is sent (and fails without it); 2.x runs the saved version
	 * and ignores it.
	 */
	private async runBody(workflowId: string, triggerName: string) {
		return {
			workflowData: await this.workflow(workflowId),
			triggerToStartFrom: { name: triggerName },
		};
	}

	/** The editor's "Stop listening": removes the workflow's test webhooks (their `delete` runs). */
	async stopListening(workflowId: string): Promise<void> {
		await this.request('DELETE', `/rest/test-webhook/${workflowId}`);
	}

	/** The editor's "Stop" on a running execution; n8n answers with the execution's new state. */
	async stopExecution(id: string): Promise<{
		mode: string;
		startedAt: string;
		stoppedAt?: string;
		finished: boolean;
		status: string;
	}> {
		return await this.request('POST', `/rest/executions/${id}/stop`, {});
	}

	async execution(id: string): Promise<Execution> {
		const raw = await this.request<Omit<Execution, 'data'> & { data: string | Execution['data'] }>(
			'GET',
			`/rest/executions/${id}`,
		);
		const data =
			typeof raw.data === 'string' ? (parseFlatted(raw.data) as Execution['data']) : raw.data;
		return { ...raw, data } as Execution;
	}

	/** Waits until an execution has stopped (successfully or not) and returns it with its data. */
	async waitForExecution(id: string, timeoutMs = 120_000): Promise<Execution> {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			try {
				const execution = await this.execution(id);
				if (!['new', 'running', 'waiting'].includes(execution.status) && execution.stoppedAt)
					return execution;
			} catch (error) {
				if (!(error instanceof N8nRestError && error.status === 404)) throw error;
			}
			await sleep(300);
		}
		throw new Error(`execution ${id} did not finish within ${timeoutMs} ms`);
	}

	/** Executions of a workflow, newest first (without their data). */
	async executions(
		workflowId: string,
	): Promise<Array<{ id: string; status: string; mode: string }>> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const result = await this.request<{
			results: Array<{ id: string; status: string; mode: string }>;
		}>('GET', `/rest/executions?filter=${filter}&limit=100`);
		return result.results;
	}

	/** A binary file's content as text, as the editor's Download gets it. */
	async binaryText(binary: BinaryRef): Promise<string> {
		if (!binary.id) return Buffer.from(binary.data ?? '', 'base64').toString('utf8');
		const id = encodeURIComponent(binary.id);
		return await this.request<string>('GET', `/rest/binary-data?id=${id}&action=download`);
	}

	/** Runs a workflow from its manual trigger and waits for the result. */
	async runAndWait(workflow: StoredWorkflow, timeoutMs?: number): Promise<Execution> {
		return await this.waitForExecution(await this.run(workflow), timeoutMs);
	}
}

/** The JSON of every output item of a node's last run (first output). */
export function outputOf(
	execution: Execution,
	nodeName: string,
	output = 0,
): Array<Record<string, unknown>> {
	const runs = execution.data.resultData.runData[nodeName];
	if (!runs?.length) {
		const error = execution.data.resultData.error;
		throw new Error(
			`node "${nodeName}" did not run (execution ${execution.id}: ${execution.status}${error ? `: ${error.message}` : ''})`,
		);
	}
	const run = runs[runs.length - 1];
	if (run.error)
		throw new Error(
			`node "${nodeName}" failed: ${run.error.message}${run.error.description ? ` (${run.error.description})` : ''}`,
		);
	return (run.data?.main?.[output] ?? []).map((item) => item.json);
}

/** Binary properties of the output items of a node's last run. */
export function binaryOf(execution: Execution, nodeName: string): Array<Record<string, BinaryRef>> {
	const runs = execution.data.resultData.runData[nodeName] ?? [];
	const run = runs[runs.length - 1];
	return (run?.data?.main?.[0] ?? []).map((item) => item.binary ?? {});
}
