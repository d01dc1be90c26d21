/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The endpoint table's request check (schema.ts): one test per kind of rule, on the real
 * endpoints, over real HTTP. A refusal is 400 INVALID_ARGUMENT naming the field by its JSON path,
 * and comes before the handler runs, so nothing changes. A misspelt field is refused too: the
 * package's tests fail on any wrong field name the package sends.
 */
import {
	ENDPOINTS,
	GRPC_CODES,
	SEEDED_API_USER,
	SEEDED_DESTINATIONS,
	SEEDED_WAREHOUSES,
	startEmulator,
	type Emulator,
} from '..';
import { EmulatorClient, loggedInClient, type CallResult } from '../client';

let emulator: Emulator;
let client: EmulatorClient;

beforeAll(async () => {
	emulator = await startEmulator({ ratePlan: null });
	client = await loggedInClient(emulator.baseUrl, emulator.credential);
});

afterAll(() => emulator.close());

function expectRefused(res: CallResult, message: string): void {
	expect({ status: res.status, body: res.body }).toEqual({
		status: 400,
		body: {
			status_id: GRPC_CODES.INVALID_ARGUMENT.id,
			status_code: 'INVALID_ARGUMENT',
			message,
			details: [],
		},
	});
}

const destinationPath = (code: string) =>
	`/event-notifications/v1/destination/https-destination/${code}/update`;
const sandbox = (body: Record<string, unknown>) =>
	client.call('POST', `${emulator.prefixes.sandboxOrder}/v1/sandbox-order/create`, {
		warehouse_code: SEEDED_WAREHOUSES.dubai,
		idempotency_key: `k${Date.now() % 1e8}`,
		items: [{ status: 'MP_ITEM_STATUS_CONFIRMED' }],
		...body,
	});
const barcodeImport = (body: Record<string, unknown>) =>
	client.call('POST', `${emulator.prefixes.imports}/v1/import/barcode`, {
		client_reference: `ref-${Date.now()}-${Math.random()}`,
		items: { data: [{ partner_sku: 'SKU-1', barcode: '6291041500213' }] },
		...body,
	});
const credential = (body: Record<string, unknown>) =>
	client.call('POST', '/identity/apiuser/v1/credential/create', {
		user_code: SEEDED_API_USER.userCode,
		...body,
	});
const exchange = (body: unknown) => client.call('POST', '/identity/oauth/v1/token/exchange', body);

describe('the request check', () => {
	it('refuses a misspelt field by its JSON path, at any depth, before anything changes', async () => {
		const code = SEEDED_DESTINATIONS.active;
		const before = emulator.destinations().find((d) => d.destination_code === code);
		expectRefused(
			await client.call('POST', destinationPath(code), { destination_nmae: 'Renamed' }),
			'unknown field destination_nmae: expected destination_name, is_active, url, credentials, event_types',
		);
		expectRefused(
			await client.call('POST', destinationPath(code), {
				is_active: false,
				event_types: [{ event_type: 'FBPI::ORDER_SYNC', is_actve: false }],
			}),
			'unknown field event_types[0].is_actve: expected event_type, is_active',
		);
		expect(emulator.destinations().find((d) => d.destination_code === code)).toEqual(before);

		const orders = emulator.sandboxOrders().length;
		expectRefused(
			await sandbox({ items: [{ status: 'MP_ITEM_STATUS_CONFIRMED', partnerSku: 'A' }] }),
			'unknown field items[0].partnerSku: expected status, partner_sku',
		);
		expect(emulator.sandboxOrders()).toHaveLength(orders);
	});

	it('refuses a field of the wrong type', async () => {
		expectRefused(
			await barcodeImport({ config: { force_sync: 'yes' } }),
			'config.force_sync must be a boolean (true or false), got string "yes"',
		);
		expectRefused(
			await barcodeImport({ items: { data: { partner_sku: 'A', barcode: '1' } } }),
			'items.data must be a list, got an object',
		);
		expectRefused(
			await exchange({ access_token: 42 }),
			'access_token must be a string, got number 42',
		);
	});

	it('refuses a missing required field; null and empty text count as missing', async () => {
		for (const body of [{}, { access_token: null }, { access_token: '' }])
			expectRefused(await exchange(body), 'access_token is required');
		expectRefused(
			await client.call('POST', destinationPath(SEEDED_DESTINATIONS.active), {
				event_types: [{ event_type: 'FBPI::ORDER_SYNC' }],
			}),
			'event_types[0].is_active is required (true or false)',
		);
	});

	it('refuses a value outside the listed ones', async () => {
		expectRefused(
			await sandbox({ items: [{ status: 'MP_ITEM_STATUS_UNSPECIFIED' }] }),
			'items[0].status must be MP_ITEM_STATUS_CONFIRMED or MP_ITEM_STATUS_CANCELLED, got "MP_ITEM_STATUS_UNSPECIFIED"',
		);
		expectRefused(
			await sandbox({ country_code: 'fr' }),
			'country_code must be one of ae, sa, eg, got "fr"',
		);
	});

	it('refuses a value beyond its cap: length, entries, at least one', async () => {
		expectRefused(
			await sandbox({ idempotency_key: 'k'.repeat(11) }),
			'idempotency_key must be at most 10 characters, got 11',
		);
		const eleven = Array.from({ length: 11 }, (_, i) => `10.0.0.${i + 1}`);
		expectRefused(
			await credential({ whitelisted_ips: eleven }),
			'whitelisted_ips has 11 entries: at most 10 are allowed',
		);
		expectRefused(await sandbox({ items: [] }), 'items must list at least one item');
		expectRefused(
			await barcodeImport({ items: {} }),
			'items.data must list at least one barcode mapping',
		);
	});

	it('refuses empty text where a field says so, and a value its format refuses', async () => {
		expectRefused(
			await credential({ user_code: '' }),
			'user_code must not be empty: leave it out or give a user code',
		);
		expectRefused(
			await credential({ whitelisted_ips: ['10.0.0.1', 'localhost'] }),
			'whitelisted_ips[1] must be an IPv4 or IPv6 address, got "localhost"',
		);
		expectRefused(
			await client.call('POST', destinationPath(SEEDED_DESTINATIONS.active), {
				event_types: [{ event_type: 'order sync', is_active: true }],
			}),
			'event_types[0].event_type "order sync" must have the form NAMESPACE::EVENT_NAME (upper-case letters, digits, _), e.g. FBPI::ORDER_SYNC',
		);
	});

	it('refuses a body that is not a JSON object (an unknown query parameter: see the last test)', async () => {
		// Login is public: no session needed to reach its check.
		const res = await fetch(`${emulator.baseUrl}/identity/public/v1/api/login`, {
			method: 'POST',
			headers: { 'user-agent': 'test', 'content-type': 'application/json' },
			body: 'token=abc',
		});
		expect(await res.json()).toMatchObject({ message: 'request body is not valid JSON' });
		expectRefused(await exchange([]), 'request body must be a JSON object');
	});

	it('covers every endpoint of the table: an unknown field or query parameter is refused, and a session is needed but for the public ones', async () => {
		const anonymous = new EmulatorClient(emulator.baseUrl, emulator.credential);
		for (const endpoint of ENDPOINTS) {
			const path = endpoint.path.replace(/\{[^}]+\}/g, 'X');
			// The FBN inbound endpoints also need their project header (the last test).
			const headers: Record<string, string> = endpoint.projectHeader
				? { [endpoint.projectHeader]: emulator.projectCode }
				: {};
			const send = (c: EmulatorClient) =>
				endpoint.method === 'GET'
					? c.call('GET', `${path}?bogus=1`, undefined, headers)
					: c.call(endpoint.method === 'PUT' ? 'PUT' : 'POST', path, { bogus: 1 }, headers);
			const res = await send(client);
			expect([endpoint.operation, res.status, res.body.message]).toEqual([
				endpoint.operation,
				400,
				expect.stringMatching(/^unknown (field|query parameter) bogus: /),
			]);
			const publicEndpoint = endpoint.auth === 'public';
			expect([endpoint.operation, (await send(anonymous)).status]).toEqual([
				endpoint.operation,
				publicEndpoint ? 400 : 401,
			]);
		}
	});

	it("FBN inbound: every endpoint requires X-Project, the session's own project (400 without, 403 for another)", async () => {
		const fbn = ENDPOINTS.filter((endpoint) => endpoint.projectHeader);
		expect(fbn).toHaveLength(11);
		for (const endpoint of fbn) {
			const path = endpoint.path.replace(/\{[^}]+\}/g, 'X');
			const method =
				endpoint.method === 'POST' || endpoint.method === 'PUT' ? endpoint.method : 'GET';
			const body = method === 'GET' ? undefined : {};
			const header = endpoint.projectHeader as string;
			const without = await client.call(method, path, body);
			const other = await client.call(method, path, body, { [header]: 'PRJ000000' });
			expect([
				endpoint.operation,
				without.status,
				without.body.message,
				other.status,
				other.body.message,
			]).toEqual([
				endpoint.operation,
				400,
				'X-Project header is required',
				403,
				'X-Project "PRJ000000" is not the project of this session',
			]);
		}
	});
});
