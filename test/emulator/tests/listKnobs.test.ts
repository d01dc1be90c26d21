/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * ListFbpiOrders' behaviours the reference leaves open, as knobs of the emulator: the list order
 * (`listOrder`, `seed`), page tokens that expire or whose signing key is rotated
 * (`tokenLifetimeMs`, `expireFbpiOrderTokens`), a list that never ends (`endlessTokens`), and
 * orders listed late (`listedFrom`). Over real HTTP: ListFbpiOrders through the client, the knobs
 * through the control API (and in-process, as tests of the poll trigger set them).
 */
import { GRPC_CODES, startEmulator, TOKEN_REFUSED, type Emulator } from '..';
import { ControlClient, EmulatorClient, loggedInClient, type CallResult } from '../client';

let emulator: Emulator;
let client: EmulatorClient;
let control: ControlClient;

beforeAll(async () => {
	emulator = await startEmulator();
	client = await loggedInClient(emulator.baseUrl, emulator.credential);
	control = new ControlClient(emulator.controlUrl);
});

afterAll(() => emulator.close());

afterEach(() => emulator.setFbpiOrderQuirks(null));

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

const START = Date.UTC(2026, 2, 1);

/** `count` orders in a new warehouse, a minute apart, the last two at the same time (a tie). */
function addOrders(count: number, extra: object = {}): { warehouse: string; numbers: string[] } {
	const warehouse = unique('WH');
	const orders = Array.from({ length: count }, (_, i) => ({
		createdAt: START + Math.min(i, count - 2) * 60_000,
	}));
	const added = emulator.addFbpiOrders({ warehouseCode: warehouse, orders, ...extra });
	return { warehouse, numbers: added.map((order) => order.fbpi_order_nr) };
}

const list = (warehouse: string, nextToken?: string): Promise<CallResult> =>
	client.call(
		'POST',
		`/fbpi/v1/fbpi-orders/list${nextToken === undefined ? '' : `?next_token=${encodeURIComponent(nextToken)}`}`,
		{ warehouse_code: warehouse },
	);

const numbersOf = (res: CallResult): string[] =>
	res.body.orders.map((order: { fbpi_order_nr: string }) => order.fbpi_order_nr);

/** Every page of one listing (at most `maxPages`): the numbers of each page, the last token. */
async function listing(warehouse: string, maxPages = 20) {
	const pages: string[][] = [];
	let token: string | undefined;
	do {
		const res = await list(warehouse, token);
		expect(res.status).toBe(200);
		pages.push(numbersOf(res));
		token = res.body.next_token || undefined;
	} while (token !== undefined && pages.length < maxPages);
	return { pages, all: pages.flat(), token };
}

const refused = (message: string | RegExp) => ({
	status: 400,
	body: {
		status_id: GRPC_CODES.INVALID_ARGUMENT.id,
		status_code: 'INVALID_ARGUMENT',
		message: typeof message === 'string' ? message : expect.stringMatching(message),
		details: [],
	},
});
const answer = (res: CallResult) => ({ status: res.status, body: res.body });

describe('listOrder', () => {
	it('oldest (default) and newest: creation order and its exact reverse, ties included', async () => {
		const { warehouse, numbers } = addOrders(7);
		emulator.setFbpiOrderQuirks({ pageSize: 3 });
		const oldest = await listing(warehouse);
		expect(oldest.pages.map((page) => page.length)).toEqual([3, 3, 1]);
		expect(oldest.all).toEqual(numbers);
		expect((await control.setFbpiOrderQuirks({ pageSize: 3, listOrder: 'newest' })).status).toBe(
			200,
		);
		const newest = await listing(warehouse);
		expect(newest.pages.map((page) => page.length)).toEqual([3, 3, 1]);
		expect(newest.all).toEqual([...numbers].reverse());
	});

	it('shuffled: one random order per listing, kept across its pages; reproducible by seed', async () => {
		const { warehouse, numbers } = addOrders(12);
		emulator.setFbpiOrderQuirks({ pageSize: 5, listOrder: 'shuffled', seed: 7 });
		const first = await listing(warehouse);
		const second = await listing(warehouse);
		for (const run of [first, second]) {
			expect(run.pages.map((page) => page.length)).toEqual([5, 5, 2]);
			expect([...run.all].sort()).toEqual([...numbers].sort());
		}
		expect(first.all).not.toEqual(numbers);
		expect(first.all).not.toEqual([...numbers].reverse());
		// Each listing draws its own order.
		expect(second.all).not.toEqual(first.all);
		// The same seed and requests give the same orders again.
		emulator.setFbpiOrderQuirks({ pageSize: 5, listOrder: 'shuffled', seed: 7 });
		expect((await listing(warehouse)).all).toEqual(first.all);
		expect((await listing(warehouse)).all).toEqual(second.all);
	});

	it('changing: every page request reshuffles the whole list, so a listing repeats and skips orders', async () => {
		const { warehouse, numbers } = addOrders(30);
		emulator.setFbpiOrderQuirks({ pageSize: 10, listOrder: 'changing', seed: 3 });
		const run = await listing(warehouse);
		expect(run.pages.map((page) => page.length)).toEqual([10, 10, 10]);
		const distinct = new Set(run.all);
		expect(distinct.size).toBeLessThan(numbers.length);
		expect(numbers.filter((nr) => !distinct.has(nr)).length).toBeGreaterThan(0);
		// The same first page asked twice comes in two orders.
		const again = numbersOf(await list(warehouse));
		expect(again).not.toEqual(run.pages[0]);
		// Reproducible by seed.
		emulator.setFbpiOrderQuirks({ pageSize: 10, listOrder: 'changing', seed: 3 });
		expect((await listing(warehouse)).all).toEqual(run.all);
	});

	it('a token of one list order is refused by another', async () => {
		const { warehouse } = addOrders(4);
		emulator.setFbpiOrderQuirks({ pageSize: 2 });
		const token = (await list(warehouse)).body.next_token;
		emulator.setFbpiOrderQuirks({ pageSize: 2, listOrder: 'newest' });
		expect(answer(await list(warehouse, token))).toEqual(
			refused(/next_token was issued for another list order \(oldest\)/),
		);
	});
});

describe('page tokens that expire', () => {
	it('tokenLifetimeMs: a token given longer ago is answered 400 INVALID_ARGUMENT', async () => {
		const { warehouse } = addOrders(4);
		emulator.setFbpiOrderQuirks({ pageSize: 2, tokenLifetimeMs: 60_000 });
		const token = (await list(warehouse)).body.next_token;
		expect(token).toMatch(/^[\w-]+$/);
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now');
		try {
			clock.mockReturnValue(now + 59_000);
			expect((await list(warehouse, token)).status).toBe(200);
			clock.mockReturnValue(now + 61_000);
			expect(answer(await list(warehouse, token))).toEqual(refused(TOKEN_REFUSED));
		} finally {
			clock.mockRestore();
		}
		// Without the lifetime, the same token is taken again.
		emulator.setFbpiOrderQuirks({ pageSize: 2 });
		expect((await list(warehouse, token)).status).toBe(200);
	});

	it('expireFbpiOrderTokens: every token issued so far is refused, later ones are taken', async () => {
		const { warehouse, numbers } = addOrders(4);
		emulator.setFbpiOrderQuirks({ pageSize: 2 });
		const token = (await list(warehouse)).body.next_token;
		expect((await control.expireFbpiOrderTokens()).status).toBe(200);
		expect(answer(await list(warehouse, token))).toEqual(refused(TOKEN_REFUSED));
		expect((await listing(warehouse)).all).toEqual(numbers);
		// In-process too; another project's tokens are not touched.
		const fresh = (await list(warehouse)).body.next_token;
		emulator.expireFbpiOrderTokens('PRJ778001');
		expect((await list(warehouse, fresh)).status).toBe(200);
		emulator.expireFbpiOrderTokens();
		expect((await list(warehouse, fresh)).status).toBe(400);
	});
});

describe('endlessTokens', () => {
	it('the last page carries a new token; each page it gives is empty with yet another one', async () => {
		const { warehouse, numbers } = addOrders(3);
		emulator.setFbpiOrderQuirks({ endlessTokens: true });
		const run = await listing(warehouse, 6);
		expect(run.pages).toEqual([numbers, [], [], [], [], []]);
		expect(run.token).toEqual(expect.stringMatching(/^[\w-]+$/));
		const tokens: string[] = [];
		let token: string | undefined;
		for (let i = 0; i < 5; i++) {
			const res = await list(warehouse, token);
			tokens.push((token = res.body.next_token as string));
		}
		expect(tokens.every((t) => t !== '')).toBe(true);
		expect(new Set(tokens).size).toBe(tokens.length);
		// An order added meanwhile is not on those pages: the listing never reaches it.
		emulator.addFbpiOrders({ warehouseCode: warehouse, createdAt: START + 3_600_000 });
		expect(numbersOf(await list(warehouse, token))).toEqual([]);
	});
});

describe('orders listed late (listedFrom)', () => {
	it('ListFbpiOrders shows the order from listedFrom on; GetFbpiOrder finds it from the start', async () => {
		const warehouse = unique('WH');
		const now = Date.now();
		const [onTime] = emulator.addFbpiOrders({ warehouseCode: warehouse, createdAt: START });
		const lateBody = {
			warehouseCode: warehouse,
			createdAt: START + 1000,
			listedFrom: now + 60_000,
		};
		const added = await control.addFbpiOrders(lateBody);
		expect(added.status).toBe(200);
		const late = added.body[0].fbpi_order_nr as string;
		expect(added.body[0].order_created_at).toBe(new Date(START + 1000).toISOString());
		expect(numbersOf(await list(warehouse))).toEqual([onTime.fbpi_order_nr]);
		const read = await client.call('GET', `/fbpi/v1/fbpi-order/${late}/get`);
		expect(read.status).toBe(200);
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 60_000);
		try {
			expect(numbersOf(await list(warehouse))).toEqual([onTime.fbpi_order_nr, late]);
		} finally {
			clock.mockRestore();
		}
		// Per order too, overriding the call's.
		const [perOrder] = emulator.addFbpiOrders({
			warehouseCode: warehouse,
			listedFrom: now - 1,
			orders: [{ createdAt: START + 2000, listedFrom: now + 60_000 }],
		});
		expect(numbersOf(await list(warehouse))).not.toContain(perOrder.fbpi_order_nr);
	});
});

describe('checked like the other quirks', () => {
	it('a wrong value is 400 INVALID_ARGUMENT naming the knob', async () => {
		for (const [wrong, message] of [
			[{ listOrder: 'random' }, /listOrder must be one of oldest, newest, shuffled, changing/],
			[{ seed: 1.5 }, /seed must be an integer/],
			[{ tokenLifetimeMs: -1 }, /tokenLifetimeMs must be a number >= 0/],
			[{ endlessTokens: 'yes' }, /endlessTokens must be a boolean/],
		] as const)
			expect(answer(await control.setFbpiOrderQuirks(wrong as never))).toEqual(refused(message));
		expect(answer(await control.addFbpiOrders({ listedFrom: 'soon' }))).toEqual(
			refused(/listedFrom must be a date/),
		);
		expect(answer(await control.addFbpiOrders({ orders: [{ listedFrom: 'soon' }] }))).toEqual(
			refused(/orders\[0\]\.listedFrom must be a date/),
		);
		expect(answer(await control.call('POST', '/fbpi-orders/tokens/expire', [1]))).toEqual(
			refused(/projectCode/),
		);
	});
});
