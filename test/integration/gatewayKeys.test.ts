/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * One gateway, however its Base URL is typed: two credentials that spell the same gateway and
 * project differently (scheme case, a trailing slash, spaces around the project code) share the
 * rate plan's limiter and the trigger's ownership of a destination. A local Base URL is a plan of
 * its own, per project, even in front of the same service (the gateways' hosts under noon.partners
 * share one per project: test/unit/rateScope.test.ts, plans.test.ts). And the trigger's takeover
 * log line names the destination's previous address without its query string or user info.
 */
import { createServer, request as httpRequest } from 'http';
import type { AddressInfo } from 'net';
import type { INodeParameters } from 'n8n-workflow';

import {
	credentialFields,
	SEEDED_DESTINATIONS,
	SEEDED_PO,
	startEmulator,
	type Emulator,
} from '../emulator';
import {
	chain,
	checkEveryRun,
	createTestEnvironment,
	type ActiveWorkflow,
	type TestEnvironment,
	type TestWorkflow,
} from '../helpers';
import { checkOutputSchemas } from '../helpers/outputSchemas';

// Seller Platform outputs as their output schemas say, as in the tests using fixture.ts.
checkEveryRun(checkOutputSchemas);

const TRIGGER = 'Seller Platform Trigger';
const DESTINATION = SEEDED_DESTINATIONS.active;

let emulator: Emulator;
let env: TestEnvironment;
const handles: ActiveWorkflow[] = [];
const servers: Array<{ close(): Promise<void> }> = [];

beforeEach(async () => {
	emulator = await startEmulator();
	env = createTestEnvironment();
	// The same gateway and project, typed two ways.
	env.addCredential('typed-plainly', 'sellerPlatformApi', credentialFields(emulator));
	env.addCredential(
		'typed-otherwise',
		'sellerPlatformApi',
		credentialFields(emulator, {
			baseUrl: ` ${emulator.baseUrl.replace('http://', 'HTTP://')}/ `,
			projectCode: ` ${emulator.credential.project_code} `,
		}),
	);
});

afterEach(async () => {
	for (const handle of handles.splice(0)) await handle.close();
	for (const server of servers.splice(0)) await server.close();
	await env.close();
	await emulator.close();
});

function getPoWorkflow(credential: string): TestWorkflow {
	const parameters: INodeParameters = {
		resource: 'purchaseOrder',
		operation: 'get',
		poNr: SEEDED_PO.released,
		// No waiting: a pause of the plan fails the run at once, naming when the service is back.
		options: { waitingBudgetSeconds: 0 },
	};
	return {
		nodes: [
			{ name: 'Items', type: 'testItems', parameters: { items: '[{}]' } },
			{
				name: 'Get PO',
				type: 'sellerPlatform',
				parameters,
				credentials: { sellerPlatformApi: credential },
			},
		],
		connections: chain('Items', 'Get PO'),
	};
}

function triggerWorkflow(id: string, credential: string): TestWorkflow {
	return {
		id,
		nodes: [
			{
				name: TRIGGER,
				type: 'sellerPlatformTrigger',
				parameters: { destinationCode: DESTINATION, events: ['FBPI::ORDER_SYNC'] },
				credentials: { sellerPlatformApi: credential },
			},
			{ name: 'Received', type: 'testNoOp' },
		],
		connections: chain(TRIGGER, 'Received'),
	};
}

async function activate(workflow: TestWorkflow, mode: 'trigger' | 'manual' = 'trigger') {
	const handle = await env.activateWorkflow(workflow, { mode });
	handles.push(handle);
	return handle;
}

const poRequests = () => emulator.requests().filter((r) => r.operation === 'GetPurchaseOrder');

describe('two spellings of one gateway and project', () => {
	it("share one rate-plan limiter: a 429's pause seen through one holds the other's request back", async () => {
		emulator.injectFaults({ count: 1, status: 429, retryAfter: 30, operation: 'GetPurchaseOrder' });

		const first = await env.runWorkflow(getPoWorkflow('typed-plainly'));
		expect(first.nodeError('Get PO')?.message).toMatch(/takes requests again at .*Retry-After/);
		expect(poRequests().map((r) => r.status)).toEqual([429]);

		const second = await env.runWorkflow(getPoWorkflow('typed-otherwise'));
		expect(second.nodeError('Get PO')?.message).toMatch(/takes requests again at/);
		// The pause holds: the second credential's request was never sent.
		expect(poRequests().map((r) => r.status)).toEqual([429]);
	});

	it('share the ownership of a destination: the other spelling cannot listen for test events on it', async () => {
		const live = await activate(triggerWorkflow('live-workflow', 'typed-plainly'));

		await expect(
			activate(triggerWorkflow('draft-workflow', 'typed-otherwise'), 'manual'),
		).rejects.toThrow(
			`Destination "${DESTINATION}" is registered to the production webhook of another active workflow, so it cannot listen for test events now`,
		);
		const destination = emulator.destinations().find((d) => d.destination_code === DESTINATION);
		expect(destination).toMatchObject({ url: live.webhookUrl, is_active: true });
	});
});

/**
 * A gateway in front of the emulator (another Base URL to the same service, as the sandbox gateway
 * is to production). With `previousUrl`, its UpdateDestination answer also says where the
 * destination pointed before (`previous_url`), as a gateway may.
 */
async function startGateway(previousUrl?: string) {
	const target = new URL(emulator.baseUrl);
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const forward = httpRequest(
				{
					host: target.hostname,
					port: target.port,
					method: req.method,
					path: req.url,
					headers: req.headers,
				},
				(answer) => {
					const parts: Buffer[] = [];
					answer.on('data', (chunk: Buffer) => parts.push(chunk));
					answer.on('end', () => {
						let body = Buffer.concat(parts).toString('utf8');
						if (
							previousUrl !== undefined &&
							answer.statusCode === 200 &&
							/\/https-destination\/.+\/update$/.test(req.url ?? '')
						) {
							body = JSON.stringify({ ...JSON.parse(body), previous_url: previousUrl });
						}
						const headers = { ...answer.headers };
						delete headers['content-length'];
						res.writeHead(answer.statusCode ?? 502, headers);
						res.end(body);
					});
				},
			);
			forward.end(Buffer.concat(chunks));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	servers.push({
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	});
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a local gateway in front of the same service (another local Base URL, one project)', () => {
	it("is a plan of its own: a 429's pause through one does not hold the other's request back", async () => {
		const local = await startGateway();
		env.addCredential('local', 'sellerPlatformApi', credentialFields(emulator, { baseUrl: local }));
		emulator.injectFaults({ count: 1, status: 429, retryAfter: 30, operation: 'GetPurchaseOrder' });

		const first = await env.runWorkflow(getPoWorkflow('typed-plainly'));
		expect(first.nodeError('Get PO')?.message).toMatch(/takes requests again at .*Retry-After/);
		// Before, the project's plan was one whatever the Base URL: this request was never sent.
		const second = await env.runWorkflow(getPoWorkflow('local'));
		expect(second.nodeError('Get PO')?.message).toBeUndefined();
		expect(poRequests().map((r) => r.status)).toEqual([429, 200]);
	});
});

describe("the trigger's takeover log line", () => {
	it('names where the destination pointed without its query string or user info', async () => {
		const gateway = await startGateway(
			'https://ops:hunter2@hooks.example.com/in/orders?token=s3cr3t-t0ken#part',
		);
		env.addCredential(
			'through-gateway',
			'sellerPlatformApi',
			credentialFields(emulator, { baseUrl: gateway }),
		);
		await activate(triggerWorkflow('trigger-workflow', 'through-gateway'));

		expect(env.logger.entries).toContainEqual(
			expect.objectContaining({
				level: 'warn',
				message: `Seller Platform Trigger took over destination "${DESTINATION}", which pointed at https://hooks.example.com/in/orders`,
			}),
		);
		const logged = JSON.stringify(env.logger.entries);
		for (const secret of ['hunter2', 'ops:', 's3cr3t-t0ken', 'token=', '#part']) {
			expect(logged).not.toContain(secret);
		}
	});
});
