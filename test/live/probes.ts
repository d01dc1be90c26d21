/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The probes: what the gateway does where the emulator's knobs assume something (docs/emulator.md,
 * `/__control/fbpi-orders/quirks` and `/__control/rate-plan`). Each prints what it saw, so a
 * maintainer can set the emulator's defaults from facts; none fails the run.
 */
import type { LiveAnswer } from './node';
import { cookieName } from './safe';
import { errorOf, headerFacts, orderOf, shapeOf } from './shape';
import type { Run } from './suite';

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const serviceTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
const DAY_MS = 86_400_000;
const MAX_PAGES = 10;

interface Listed {
	orders: Array<{ fbpi_order_nr: string; order_created_at: string }>;
	next_token?: string;
}

/** Every page of a listing (at most `MAX_PAGES`), and the first page's token. */
async function listAll(run: Run, body: Record<string, string>, first?: LiveAnswer) {
	const orders: Listed['orders'] = [];
	let answer = first ?? (await run.call({ endpoint: 'ListFbpiOrders', body }));
	const firstToken = (answer.body as Listed).next_token;
	for (let pages = 1; ; pages++) {
		const page = (answer.body ?? {}) as Listed;
		orders.push(...(page.orders ?? []));
		if (answer.status !== 200 || !page.next_token || pages === MAX_PAGES) {
			return { orders, pages, firstToken, status: answer.status };
		}
		const query = { next_token: page.next_token };
		answer = await run.call({ endpoint: 'ListFbpiOrders', body, query });
	}
}

/** The order ListFbpiOrders lists in, and what its page tokens do. Gives the listed order numbers. */
export async function probeListing(run: Run): Promise<string[]> {
	const body = {
		warehouse_code: run.vars.warehouseCode,
		created_after: serviceTime(Date.now() - 90 * DAY_MS),
	};
	const first = await run.step('ListFbpiOrders', { endpoint: 'ListFbpiOrders', body });
	const { orders, pages, firstToken, status } = await listAll(run, body, first);
	const numbers = orders.map((order) => order.fbpi_order_nr);
	const repeated = numbers.length - new Set(numbers).size;
	const order = orderOf(orders.map((o) => Date.parse(o.order_created_at)));
	run.print(
		`probe list order: ${orders.length} orders over ${pages} pages (last ${status}), by order_created_at ${orders.length > 1 ? order : 'not known (fewer than 2)'}, ${repeated} listed twice`,
	);
	if (firstToken) await probeTokens(run, body, firstToken);
	else run.print('probe page tokens: skipped, the first page had no next_token');
	return numbers;
}

async function probeTokens(run: Run, body: Record<string, string>, token: string) {
	const again = async (filters: Record<string, string>) => {
		const answer = await run.call({
			endpoint: 'ListFbpiOrders',
			body: filters,
			query: { next_token: token },
		});
		return `${answer.status}${answer.status === 200 ? '' : ` ${errorOf(answer)}`}`;
	};
	const atOnce = await again(body);
	const shifted = { ...body, created_after: serviceTime(Date.parse(body.created_after) + 1000) };
	const otherFilters = await again(shifted);
	await sleep(run.options.tokenWaitMs);
	const later = await again(body);
	run.print(
		`probe page tokens: the first page's token used again at once: ${atOnce}; with other filters: ${otherFilters}; after ${run.options.tokenWaitMs / 1000} s: ${later}`,
	);
}

/** How long a new sandbox order takes to be read (GetFbpiOrder) and listed (ListFbpiOrders). */
export async function probeLateness(run: Run, orderNr: string): Promise<LiveAnswer | undefined> {
	const start = Date.now();
	const seconds = () => `${((Date.now() - start) / 1000).toFixed(1)} s`;
	let read: LiveAnswer | undefined;
	for (let tries = 0; tries < 30 && read?.status !== 200; tries++) {
		if (tries) await sleep(1000);
		read = await run.call({ endpoint: 'GetFbpiOrder', pathParams: { fbpi_order_nr: orderNr } });
	}
	const readAfter = read?.status === 200 ? seconds() : `not within ${seconds()} (${read?.status})`;
	const body = {
		warehouse_code: run.vars.warehouseCode,
		created_after: serviceTime(start - 10 * 60_000),
	};
	let listedAfter = '';
	for (let tries = 0; tries < 60 && !listedAfter; tries++) {
		if (tries) await sleep(1000);
		const { orders } = await listAll(run, body);
		if (orders.some((order) => order.fbpi_order_nr === orderNr)) listedAfter = seconds();
	}
	run.print(
		`probe lateness: the sandbox order read by GetFbpiOrder after ${readAfter}, listed by ListFbpiOrders after ${listedAfter || `more than ${seconds()}`}`,
	);
	return read?.status === 200 ? read : undefined;
}

/** How long the login's cookies last, as their Max-Age or Expires say (no lifetime: until closed). */
export function probeSession(run: Run, login: LiveAnswer) {
	const lines = [login.headers['set-cookie'] ?? []].flat().map(String);
	const lifetimes = lines.map((line) => {
		const name = cookieName(line.split('=', 1)[0].trim());
		const maxAge = /;\s*max-age=(\d+)/i.exec(line)?.[1];
		const expires = /;\s*expires=([^;]+)/i.exec(line)?.[1];
		const seconds = maxAge ?? (expires && Math.round((Date.parse(expires) - Date.now()) / 1000));
		return `${name} ${seconds === undefined ? 'no lifetime (until the client closes)' : `${seconds} s`}`;
	});
	run.print(`probe session: ${lifetimes.join(', ') || 'the login set no cookie'}`);
}

/** ListWarehouses (30 a minute, 15 in 30 s) until the gateway refuses one: its status, body and headers. */
export async function probeRateLimit(run: Run) {
	for (let sent = 1; sent <= 40; sent++) {
		const answer = await run.call({ endpoint: 'ListWarehouses', body: {} });
		if (answer.status === 200) continue;
		run.record('ListWarehouses-429', answer);
		const body = shapeOf(answer.body);
		const fields = typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [body];
		run.print(
			`probe 429: request ${sent} answered ${answer.status} (${errorOf(answer)}); body fields: ${fields.join(', ')}; Retry-After: ${retryAfterOf(answer.headers['retry-after'])}; rate headers: ${headerFacts(answer.headers).names.join(', ') || 'none'}`,
		);
		return;
	}
	run.print('probe 429: 40 ListWarehouses in a row, none refused');
}

/** A Retry-After header as a line may show it: seconds, or only what kind of value it is. */
function retryAfterOf(value: unknown): string {
	if (value === undefined) return 'none';
	const text = String(value).trim();
	if (/^\d{1,6}$/.test(text)) return JSON.stringify(text);
	return Number.isNaN(Date.parse(text))
		? `neither seconds nor a date (${text.length} characters)`
		: 'an HTTP date';
}
