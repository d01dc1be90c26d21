/**
 * Barcode → Map, Offer → Get, Event Webhook → Create / Subscribe / Assign Developer and Event
 * Schema → Get through real n8n runs against the emulator: the exact requests (path
 * with its prefix, body), validation before the network, continue on fail, and the webhook's
 * header values kept out of every error, log line and output.
 */
import type { INodeParameters } from 'n8n-workflow';

import {
	EVENT_SCHEMAS,
	SEEDED_BARCODE,
	SEEDED_DESTINATIONS,
	SEEDED_DEVELOPERS,
	SEEDED_PRODUCT_TABLE,
	SEEDED_PRODUCTS,
	type RequestLogEntry,
} from '../emulator';
import { startFixture, workflowWithItems, type Fixture } from './fixture';

const NODE = 'Seller Platform';

const BARCODE_MAP: INodeParameters = {
	resource: 'barcode',
	operation: 'map',
	barcode: '={{ $json.barcode }}',
	partnerSku: '={{ $json.sku }}',
	forceMap: '={{ $json.force ?? false }}',
};
const OFFER_GET: INodeParameters = {
	resource: 'offer',
	operation: 'get',
	partnerSku: '={{ $json.sku }}',
};
const WEBHOOK_CREATE: INodeParameters = {
	resource: 'eventWebhook',
	operation: 'create',
	url: '={{ $json.url }}',
	headers: {
		header: [
			{ name: 'X-Webhook-Secret', value: '={{ $json.secret }}' },
			{ name: 'X-Tenant', value: '={{ $json.tenant }}' },
		],
	},
};
const SUBSCRIBE: INodeParameters = {
	resource: 'eventWebhook',
	operation: 'subscribe',
	webhookCode: '={{ $json.webhook }}',
	eventType: '={{ $json.type }}',
};
const ASSIGN: INodeParameters = {
	resource: 'eventWebhook',
	operation: 'assignDeveloper',
	webhookCode: '={{ $json.webhook }}',
	devCode: '={{ $json.dev }}',
};
const SCHEMA_GET: INodeParameters = { resource: 'eventSchema', operation: 'get' };

/** A secret with the characters encodings change (space, =, +). */
const SECRET = 'wh sesame=42+key-0001';

const sent = (f: Fixture, operation: string): RequestLogEntry[] =>
	f.emulator.requests().filter((entry) => entry.operation === operation);
const apiRequests = (f: Fixture) => f.emulator.requests().filter((r) => r.operation !== 'Login');
const rowsOf = (entry: RequestLogEntry) =>
	(entry.body as { items: Array<Record<string, unknown>> }).items;
const barcodeOf = (n: number) => `629${String(n).padStart(10, '0')}`;

describe('Barcode → Map: one row per input item, mapped at once', () => {
	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture({ ratePlan: null });
	});
	afterEach(async () => await f.close());

	it('150 items are 2 requests of at most 100 rows to /catplat/v1/barcode/map, force_map only when set, outputs paired', async () => {
		const skus = SEEDED_PRODUCT_TABLE.map((p) => p.partner_sku);
		const items = Array.from({ length: 150 }, (_, i) => ({
			barcode: barcodeOf(i),
			sku: skus[i % skus.length],
			// Text from an expression is read as what it says: "true" forces, " FALSE " does not.
			force: i === 7 ? 'true' : i === 9 ? ' FALSE ' : i % 2 === 0,
		}));
		const result = await f.env.runWorkflow(workflowWithItems(items, BARCODE_MAP));
		expect(result.status).toBe('success');

		const requests = sent(f, 'SkuBarcodeMap');
		expect(requests.map((r) => [r.method, r.path, rowsOf(r).length])).toEqual([
			['POST', '/catplat/v1/barcode/map', 100],
			['POST', '/catplat/v1/barcode/map', 50],
		]);
		expect(requests.flatMap(rowsOf)).toEqual(
			items.map((item, i) => ({
				barcode: item.barcode,
				partner_sku: item.sku,
				...(i === 7 || i % 2 === 0 ? { force_map: true } : {}),
			})),
		);
		const out = result.outputs(NODE);
		expect(out.map((o) => o.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(out[7].json).toEqual({ barcode: barcodeOf(7), partner_sku: skus[1], force_map: true });
		expect(out[9].json).toEqual({ barcode: barcodeOf(9), partner_sku: skus[0], force_map: false });
		expect(f.emulator.barcodeMappings()).toHaveLength(151);
	});

	it('a barcode taken by another SKU and a SKU not in the catalog are their items’ errors; forced, the barcode moves', async () => {
		const items = [
			{ barcode: SEEDED_BARCODE, sku: SEEDED_PRODUCTS.supermall },
			{ barcode: barcodeOf(1), sku: 'SKU-NOT-IN-CATALOG' },
			{ barcode: barcodeOf(2), sku: SEEDED_PRODUCTS.noOffers },
		];
		const result = await f.env.runWorkflow(
			workflowWithItems(items, BARCODE_MAP, { continueOnFail: true }),
		);
		const out = result.json(NODE);
		expect(out[0].error).toBe(
			`The service refused the row of item 0 (barcode "${SEEDED_BARCODE}"): barcode "${SEEDED_BARCODE}" is mapped to partner_sku "${SEEDED_PRODUCTS.offered}": set force_map to move it (ALREADY_EXISTS)`,
		);
		expect(out[1].details).toMatchObject({ status_code: 'NOT_FOUND', status_id: 5 });
		expect(out[2]).toEqual({
			barcode: barcodeOf(2),
			partner_sku: SEEDED_PRODUCTS.noOffers,
			force_map: false,
		});

		const forced = await f.env.runWorkflow(
			workflowWithItems([{ ...items[0], force: true }], BARCODE_MAP),
		);
		expect(forced.json(NODE)).toEqual([
			{ barcode: SEEDED_BARCODE, partner_sku: SEEDED_PRODUCTS.supermall, force_map: true },
		]);
		expect(f.emulator.barcodeMappings()[0]).toMatchObject({
			barcode: SEEDED_BARCODE,
			partner_sku: SEEDED_PRODUCTS.supermall,
		});
	});

	it('refuses before the network: a blank or too long barcode or SKU, Force Map not true/false, one barcode twice', async () => {
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ barcode: ' ', sku: 'A' }, 'The parameter "Barcode" (barcode) must not be empty'],
			[{ barcode: '1', sku: '' }, 'The parameter "Partner SKU" (partnerSku) must not be empty'],
			[
				{ barcode: '9'.repeat(101), sku: 'A' },
				'The parameter "Barcode" (barcode) must be at most 100 characters, got 101',
			],
			[
				{ barcode: '1', sku: 'S'.repeat(101) },
				'The parameter "Partner SKU" (partnerSku) must be at most 100 characters, got 101',
			],
			[
				{ barcode: '1', sku: 'A', force: 'yes' },
				'The parameter "Force Map" (forceMap) must be true or false, got the text "yes"',
			],
		];
		for (const [item, message] of cases) {
			const result = await f.env.runWorkflow(workflowWithItems([item], BARCODE_MAP));
			expect(result.status).toBe('error');
			expect(result.nodeError(NODE)?.message).toBe(message);
		}
		const twice = [
			{ barcode: '111', sku: SEEDED_PRODUCTS.offered },
			{ barcode: '111', sku: SEEDED_PRODUCTS.supermall },
		];
		const refused = await f.env.runWorkflow(workflowWithItems(twice, BARCODE_MAP));
		expect(refused.nodeError(NODE)?.message).toBe(
			'Item 1 has the same "Barcode" as item 0 (barcode "111"): a run updates each row once',
		);
		expect(apiRequests(f)).toEqual([]);
	});
});

describe('Offer → Get', () => {
	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture({ ratePlan: null });
	});
	afterEach(async () => await f.close());

	it('reads each item’s SKU at /offer/v1/product/{partner_sku} (one path segment); an unknown SKU is its item’s NOT_FOUND', async () => {
		f.emulator.addProducts([{ ...SEEDED_PRODUCT_TABLE[2], partner_sku: 'SKU/1 a?b' }]);
		const items = [{ sku: SEEDED_PRODUCTS.offered }, { sku: 'SKU/1 a?b' }, { sku: 'SKU-404' }];
		const result = await f.env.runWorkflow(
			workflowWithItems(items, OFFER_GET, { continueOnFail: true }),
		);
		expect(sent(f, 'GetProductOffers').map((r) => [r.method, r.path])).toEqual([
			['GET', `/offer/v1/product/${SEEDED_PRODUCTS.offered}`],
			['GET', '/offer/v1/product/SKU%2F1%20a%3Fb'],
			['GET', '/offer/v1/product/SKU-404'],
		]);
		const out = result.json(NODE);
		expect(out[0]).toEqual(SEEDED_PRODUCT_TABLE[0]);
		expect(out[1]).toMatchObject({ partner_sku: 'SKU/1 a?b', offers: [] });
		expect(out[2].details).toMatchObject({ httpCode: '404', status_code: 'NOT_FOUND' });
		expect(result.outputs(NODE).map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);

		const blank = await f.env.runWorkflow(workflowWithItems([{ sku: '  ' }], OFFER_GET));
		expect(blank.nodeError(NODE)?.message).toBe(
			'The parameter "Partner SKU" (partnerSku) must not be empty',
		);
		expect(sent(f, 'GetProductOffers')).toHaveLength(3);
	});
});

describe('Event Webhook → Create, Subscribe, Assign Developer', () => {
	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture({ ratePlan: null });
	});
	afterEach(async () => await f.close());

	it('creates a webhook under /event-notifications, subscribes it and assigns a developer: exact bodies, header values masked in the output', async () => {
		const url = 'https://example.com/hooks/noon';
		const created = await f.env.runWorkflow(
			workflowWithItems([{ url, secret: SECRET, tenant: 'tenant-7' }], WEBHOOK_CREATE),
		);
		expect(created.status).toBe('success');
		const [create] = sent(f, 'CreateWebhook');
		expect([create.method, create.path]).toEqual([
			'POST',
			'/event-notifications/v1/create-webhook',
		]);
		expect(create.body).toEqual({
			url,
			credentials: { 'X-Webhook-Secret': SECRET, 'X-Tenant': 'tenant-7' },
		});
		const [webhook] = created.json(NODE);
		expect(webhook).toEqual({
			webhook_code: expect.any(String),
			url,
			headers: { 'X-Webhook-Secret': '****', 'X-Tenant': '****' },
		});
		const code = String(webhook.webhook_code);
		// In the emulator the webhook is a destination: its real header values kept there.
		const destination = f.emulator.destinations().find((d) => d.destination_code === code);
		expect(destination).toMatchObject({ url, credentials: { 'X-Webhook-Secret': SECRET } });

		const subscribed = await f.env.runWorkflow(
			workflowWithItems(
				[
					{ webhook: code, type: 'FBPI::ORDER_SYNC' },
					{ webhook: code, type: 'FBPO::PO_SYNC' },
				],
				SUBSCRIBE,
			),
		);
		expect(sent(f, 'CreateSubscription').map((r) => [r.path, r.body])).toEqual([
			[
				'/event-notifications/v1/create-subscription',
				{ webhook_code: code, event_type: 'FBPI::ORDER_SYNC' },
			],
			[
				'/event-notifications/v1/create-subscription',
				{ webhook_code: code, event_type: 'FBPO::PO_SYNC' },
			],
		]);
		expect(subscribed.json(NODE)).toEqual([
			{ subscription_code: expect.any(String), webhook_code: code, event_type: 'FBPI::ORDER_SYNC' },
			{ subscription_code: expect.any(String), webhook_code: code, event_type: 'FBPO::PO_SYNC' },
		]);
		expect(f.emulator.destinations().find((d) => d.destination_code === code)?.event_types).toEqual(
			[
				{ event_type: 'FBPI::ORDER_SYNC', is_active: true },
				{ event_type: 'FBPO::PO_SYNC', is_active: true },
			],
		);

		const assigned = await f.env.runWorkflow(
			workflowWithItems(
				[
					{ webhook: code, dev: SEEDED_DEVELOPERS.authorized },
					{ webhook: code, dev: 'DEV-UNKNOWN' },
				],
				ASSIGN,
				{ continueOnFail: true },
			),
		);
		expect(sent(f, 'AssignDeveloperToWebhook').map((r) => [r.path, r.body])).toEqual([
			[
				'/event-notifications/v1/webhook/assign-developer',
				{ webhook_code: code, dev_code: SEEDED_DEVELOPERS.authorized },
			],
			[
				'/event-notifications/v1/webhook/assign-developer',
				{ webhook_code: code, dev_code: 'DEV-UNKNOWN' },
			],
		]);
		const [ok, unknown] = assigned.json(NODE);
		expect(ok).toEqual({ webhook_code: code, dev_code: SEEDED_DEVELOPERS.authorized });
		expect(unknown.details).toMatchObject({ status_code: 'NOT_FOUND' });
	});

	it.each([
		["the reference file's bare paths (an empty prefix)", '', '/v1'],
		['a prefix of its own', '/events/', '/events/v1'],
	])(
		"the credential's Event Notifications Path Prefix routes Create, Subscribe and Assign Developer: %s",
		async (_, prefix, base) => {
			// An emulator that serves the event webhooks under that prefix only.
			await f.close();
			f = await startFixture(
				{ ratePlan: null, prefixes: { eventNotifications: base.replace(/\/v1$/, '') } },
				{ eventNotificationsPathPrefix: prefix },
			);
			const url = 'https://example.com/hooks/prefixed';
			const created = await f.env.runWorkflow(
				workflowWithItems([{ url, secret: SECRET, tenant: 't' }], WEBHOOK_CREATE),
			);
			expect(created.status).toBe('success');
			const code = String(created.json(NODE)[0].webhook_code);
			const items = [
				{ webhook: code, type: 'FBPI::ORDER_SYNC', dev: SEEDED_DEVELOPERS.authorized },
			];
			expect((await f.env.runWorkflow(workflowWithItems(items, SUBSCRIBE))).status).toBe('success');
			const assigned = await f.env.runWorkflow(workflowWithItems(items, ASSIGN));
			expect(assigned.json(NODE)).toEqual([
				{ webhook_code: code, dev_code: SEEDED_DEVELOPERS.authorized },
			]);
			expect(apiRequests(f).map((r) => [r.operation, r.status, r.path])).toEqual([
				['CreateWebhook', 200, `${base}/create-webhook`],
				['CreateSubscription', 200, `${base}/create-subscription`],
				['AssignDeveloperToWebhook', 200, `${base}/webhook/assign-developer`],
			]);
		},
	);

	it.each([
		['a step up', '..', 'eventNotificationsPathPrefix'],
		['a step up inside', '/events/../../admin', 'eventNotificationsPathPrefix'],
		['an encoded step up', '%2e%2e', 'eventNotificationsPathPrefix'],
		['a query', '/events?route=', 'eventNotificationsPathPrefix'],
		['a fragment', '#events', 'eventNotificationsPathPrefix'],
		['a host', '//other.example', 'eventNotificationsPathPrefix'],
		['a full URL', 'https://other.example/events', 'eventNotificationsPathPrefix'],
		['a backslash', '\\events', 'eventNotificationsPathPrefix'],
		['a step up (Import Path Prefix)', '/catplat/..', 'importPrefix'],
	])(
		'a path prefix of the credential stays below the Base URL: %s is refused, nothing sent',
		async (_, prefix, field) => {
			await f.close();
			f = await startFixture({ ratePlan: null }, { [field]: prefix });
			const result = await f.env.runWorkflow(
				workflowWithItems([{ url: 'https://example.com/h', secret: SECRET, tenant: 't' }], {
					...WEBHOOK_CREATE,
					...(field === 'importPrefix'
						? { resource: 'import', operation: 'getStatus', reference: 'IMP-1' }
						: {}),
				}),
			);
			expect(result.status).toBe('error');
			const label =
				field === 'importPrefix' ? 'Import Path Prefix' : 'Event Notifications Path Prefix';
			expect(result.nodeError(NODE)?.message).toMatch(
				new RegExp(`^The "${label}" field of the credential must be a path such as /`),
			);
			expect(f.emulator.requests()).toEqual([]);
		},
	);

	it('refuses before the network: no https URL, no header, a bad or repeated header name, an empty or multi-line value (never shown), an event type not NAMESPACE::EVENT_NAME', async () => {
		// The values come from the items (a value typed into the node is part of the workflow,
		// which n8n itself stores and logs with its errors).
		const hidden = 'top-secret-value';
		const header = (name: string, value = '={{ $json.secret }}') => ({
			...WEBHOOK_CREATE,
			headers: { header: [{ name, value }] },
		});
		const to = { url: 'https://example.com/h', secret: hidden };
		const cases: Array<[INodeParameters, Record<string, unknown>, string]> = [
			[
				WEBHOOK_CREATE,
				{ url: 'http://example.com/h', secret: hidden },
				'The parameter "URL" (url) must be an https:// address, got "http://example.com/h"',
			],
			[
				{ ...WEBHOOK_CREATE, headers: {} },
				{ url: 'https://example.com/h' },
				'The parameter "Headers" (headers) needs at least one header',
			],
			[
				header('X Bad'),
				to,
				'The header name "X Bad" in "Headers" (headers) is not a valid HTTP header name',
			],
			[
				{
					...WEBHOOK_CREATE,
					headers: {
						header: [
							{ name: 'X-Key', value: '={{ $json.secret }}' },
							{ name: 'x-key', value: '={{ $json.secret }}' },
						],
					},
				},
				to,
				'The header "x-key" is in "Headers" (headers) twice: header names are the same in any case',
			],
			[
				header('X-Key', '={{ "  " }}'),
				{ url: 'https://example.com/h' },
				'The value of the header "X-Key" in "Headers" (headers) must not be empty',
			],
			[
				header('X-Key', '={{ $json.secret + "\\r\\nX-Injected: 1" }}'),
				to,
				'The value of the header "X-Key" in "Headers" (headers) must be on one line: a line break or NUL cannot be sent in a header',
			],
			[
				header('X-Key', '={{ 9007199254740993 }}'),
				{ url: 'https://example.com/h' },
				'The value of the header "X-Key" in "Headers" (headers) must be text',
			],
			[
				SUBSCRIBE,
				{ webhook: 'DST-1', type: 'fbpi::order_sync' },
				'The parameter "Event Type" (eventType) must have the form NAMESPACE::EVENT_NAME (capital letters, digits and _), e.g. FBPI::ORDER_SYNC, got "fbpi::order_sync"',
			],
			[
				ASSIGN,
				{ webhook: 'DST-1', dev: '' },
				'The parameter "Developer Code" (devCode) must not be empty',
			],
		];
		for (const [parameters, item, message] of cases) {
			const result = await f.env.runWorkflow(workflowWithItems([item], parameters));
			expect(result.status).toBe('error');
			const error = result.nodeError(NODE) as Error & { description?: string };
			expect(error.message).toBe(message);
			expect(JSON.stringify(error) + String(error.description)).not.toContain(hidden);
		}
		expect(apiRequests(f)).toEqual([]);
		expect(JSON.stringify(f.env.logger.entries)).not.toContain(hidden);
	});

	it.each([true, false])(
		'a service echoing the request never shows a header value: not in the error, the error item or the logs (continue on fail: %s)',
		async (continueOnFail) => {
			f.emulator.injectFaults({ count: 1, status: 400, echo: true, operation: 'CreateWebhook' });
			const result = await f.env.runWorkflow(
				workflowWithItems(
					[{ url: 'https://example.com/h', secret: SECRET, tenant: 'tenant-7' }],
					WEBHOOK_CREATE,
					{
						continueOnFail,
					},
				),
			);
			// The echo really carried it: the request's body had the value.
			expect(JSON.stringify(sent(f, 'CreateWebhook')[0].body)).toContain(SECRET);
			const error = result.nodeError(NODE) as (Error & { description?: string }) | undefined;
			const seen =
				JSON.stringify(result.json(NODE)) +
				JSON.stringify(error ?? {}) +
				String(error?.message) +
				String(error?.description) +
				JSON.stringify(f.env.logger.entries);
			expect(seen).toContain('<redacted>');
			for (const secret of [SECRET, 'tenant-7', encodeURIComponent(SECRET)]) {
				expect(seen).not.toContain(secret);
			}
		},
	);

	it('never repeats a create: an answer lost after the webhook was made is one request, one webhook, and the item’s error', async () => {
		f.emulator.injectFaults({ count: 1, operation: 'CreateWebhook', lostAnswer: true });
		const before = f.emulator.destinations().length;
		const result = await f.env.runWorkflow(
			workflowWithItems(
				[{ url: 'https://example.com/h', secret: SECRET, tenant: 'tenant-7' }],
				WEBHOOK_CREATE,
				{
					continueOnFail: true,
				},
			),
		);
		expect(sent(f, 'CreateWebhook')).toHaveLength(1);
		expect(f.emulator.destinations()).toHaveLength(before + 1);
		const [item] = result.json(NODE);
		expect(typeof item.error).toBe('string');
		expect(JSON.stringify(item)).not.toContain(SECRET);
	});

	it('subscribing a webhook that does not exist is its item’s NOT_FOUND; the seeded destination is a webhook too', async () => {
		const result = await f.env.runWorkflow(
			workflowWithItems(
				[
					{ webhook: 'DST-404', type: 'FBPI::ORDER_SYNC' },
					{ webhook: SEEDED_DESTINATIONS.inactive, type: 'FBPI::ORDER_SYNC' },
				],
				SUBSCRIBE,
				{ continueOnFail: true },
			),
		);
		const [missing, seeded] = result.json(NODE);
		expect(missing.details).toMatchObject({ httpCode: '404', status_code: 'NOT_FOUND' });
		expect(seeded).toMatchObject({ webhook_code: SEEDED_DESTINATIONS.inactive });
		expect(f.emulator.webhookSubscriptions()).toEqual([
			{
				subscription_code: seeded.subscription_code,
				webhook_code: SEEDED_DESTINATIONS.inactive,
				event_type: 'FBPI::ORDER_SYNC',
			},
		]);
	});
});

describe('Event Schema → Get', () => {
	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture({ ratePlan: null });
	});
	afterEach(async () => await f.close());

	it('asks GET /v1/event-schemas once per run and gives every input item the answer; a failure is every item’s error', async () => {
		const result = await f.env.runWorkflow(workflowWithItems([{}, {}, {}], SCHEMA_GET));
		expect(sent(f, 'GetEventSchema').map((r) => [r.method, r.path, r.body])).toEqual([
			['GET', '/v1/event-schemas', null],
		]);
		expect(result.json(NODE)).toEqual([EVENT_SCHEMAS, EVENT_SCHEMAS, EVENT_SCHEMAS]);
		expect(result.outputs(NODE).map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);

		f.emulator.injectFaults({ count: 1, status: 403, operation: 'GetEventSchema' });
		const failed = await f.env.runWorkflow(
			workflowWithItems([{}, {}], SCHEMA_GET, { continueOnFail: true }),
		);
		const out = failed.json(NODE);
		expect(out.map((o) => o.details)).toEqual([
			expect.objectContaining({ httpCode: '403' }),
			expect.objectContaining({ httpCode: '403' }),
		]);
		expect(sent(f, 'GetEventSchema')).toHaveLength(2);
	});
});
