/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The live suite: each operation once (read-only; `writes` adds the sandbox-safe writes), the
 * shape of each answer (shape.ts), a check of each status, then the probes (probes.ts). Nothing
 * printed holds a value of an answer: operations, statuses, error codes and messages (with the
 * run's secrets cut out), counts and facts.
 */
import { readdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import type { Call, CallRequest } from './client';
import type { LiveVariables } from './variables';
import type { LiveAnswer } from './node';
import { probeLateness, probeListing, probeRateLimit, probeSession } from './probes';
import { answerShape, diffShapes, errorOf, type AnswerShape } from './shape';

export const SHAPES_DIR = join(__dirname, 'shapes');

export interface SuiteOptions {
	writes: boolean;
	/** Sends ListWarehouses until a 429 (at most 40 requests: its plan is 30 a minute). */
	rateLimit: boolean;
	/** How long the token probe waits before it uses a page token again. */
	tokenWaitMs: number;
}

export interface Report {
	shapes: AnswerShape[];
	lines: string[];
	failures: string[];
}

/** What a step or a probe needs: the call, the run's settings, and where it reports. */
export interface Run {
	call: Call;
	vars: LiveVariables;
	options: SuiteOptions;
	report: Report;
	print(line: string): void;
	/** Prints `ok` or `FAIL` before the line; a failure fails the run. */
	check(ok: boolean, line: string, failure: string): void;
	/** Keeps the shape of an answer, the first of each name. */
	record(name: string, answer: LiveAnswer): void;
	/** One request, its shape kept (`record`), its status checked. */
	step(name: string, request: CallRequest, status?: number): Promise<LiveAnswer>;
}

export async function runSuite(
	call: Call,
	vars: LiveVariables,
	options: SuiteOptions,
	secrets: () => string[],
	out: (line: string) => void,
): Promise<Report> {
	const report: Report = { shapes: [], lines: [], failures: [] };
	const print = (line: string) => {
		const clean = secrets().reduce((text, secret) => text.split(secret).join('…'), line);
		report.lines.push(clean);
		out(clean);
	};
	const check = (ok: boolean, line: string, failure: string) => {
		print(`${ok ? 'ok ' : 'FAIL'} ${line}`);
		if (!ok) report.failures.push(failure);
	};
	const record = (name: string, answer: LiveAnswer) => {
		if (report.shapes.some((shape) => shape.operation === name)) return;
		report.shapes.push(answerShape(name, answer));
	};
	const step: Run['step'] = async (name, request, status = 200) => {
		const answer = await call(request);
		record(name, answer);
		const ok = answer.status === status;
		const line = `${name}: ${answer.status}${ok ? '' : ` (${errorOf(answer)})`}`;
		check(ok, line, `${name} answered ${answer.status}, not ${status}`);
		return answer;
	};
	const run: Run = { call, vars, options, report, print, check, record, step };
	await reads(run);
	if (options.writes) await writes(run);
	else
		print('-- writes skipped (add --writes for a sandbox order, its shipment and a stock update)');
	if (options.rateLimit) await probeRateLimit(run);
	else print('-- 429 probe skipped (add --rate-limit: up to 40 ListWarehouses in a row)');
	return report;
}

/** The test SKU's stock (its qty), read with GetStock. */
async function readStock({ step, vars }: Run): Promise<number | undefined> {
	const items = [{ warehouse_code: vars.warehouseCode, partner_sku: vars.testSku! }];
	const answer = await step('GetStock', { endpoint: 'GetStock', body: { items } });
	return ((answer.body as { items?: Array<{ qty?: number }> }).items ?? [])[0]?.qty;
}

async function reads(run: Run) {
	const { step, vars } = run;
	probeSession(run, await step('Login', { endpoint: 'Login' }));
	await step('Whoami', { endpoint: 'Whoami' });
	await step('ListWarehouses', { endpoint: 'ListWarehouses', body: {} });
	const orders = await probeListing(run);
	if (orders[0]) {
		const pathParams = { fbpi_order_nr: orders[0] };
		await step('GetFbpiOrder', { endpoint: 'GetFbpiOrder', pathParams });
	} else run.print('-- GetFbpiOrder skipped: the warehouse lists no order');
	if (vars.testSku) await readStock(run);
	else run.print('-- stock skipped: set SELLER_PLATFORM_TEST_SKU');
}

const shortId = () => Math.random().toString(36).slice(2, 10).toUpperCase();

/** A sandbox order, one item marked out of stock, the other shipped; the test SKU's stock set and back. */
async function writes(run: Run) {
	const { step, vars } = run;
	const items = [0, 1].map(() => ({
		status: 'MP_ITEM_STATUS_CONFIRMED',
		...(vars.testSku && { partner_sku: vars.testSku }),
	}));
	const body = {
		warehouse_code: vars.warehouseCode,
		idempotency_key: `L${shortId()}`.slice(0, 10),
		items,
	};
	const created = await step('CreateSandboxOrder', { endpoint: 'CreateSandboxOrder', body });
	const orderNr = String((created.body as { fbpi_order_nr?: unknown }).fbpi_order_nr ?? '');
	const order = orderNr ? await probeLateness(run, orderNr) : undefined;
	if (order) run.record('GetFbpiOrder', order);
	const itemNrs = ((order?.body as { items?: Array<{ mp_item_nr: string }> })?.items ?? []).map(
		(item) => item.mp_item_nr,
	);
	if (itemNrs.length >= 2) {
		const update = {
			fbpi_order_nr: orderNr,
			items: [{ mp_item_nr: itemNrs[1], status: 'UPDATE_ORDER_REQUEST_ITEM_STATUS_OUT_OF_STOCK' }],
		};
		await step('UpdateOrder', { endpoint: 'UpdateOrder', body: update });
		const shipment = {
			warehouse_code: vars.warehouseCode,
			integration_shipment_nr: `LIVE-${shortId()}`,
			fbpi_order_nr: orderNr,
			awbs: [{ courier: 'aramex', awb_nr: `LIVE${shortId()}` }],
			items: [{ mp_item_nr: itemNrs[0] }],
		};
		await step('CreateShipment', { endpoint: 'CreateShipment', body: shipment });
	} else
		run.print(
			'-- UpdateOrder and CreateShipment skipped: the sandbox order was not read with 2 items',
		);
	if (vars.testSku) await stockBack(run);
}

/** Sets the test SKU's stock one higher, then back; fails unless it reads as before. */
async function stockBack(run: Run) {
	const before = await readStock(run);
	if (typeof before !== 'number') {
		return run.print('-- stock update skipped: GetStock gave no qty for the test SKU');
	}
	const row = { warehouse_code: run.vars.warehouseCode, partner_sku: run.vars.testSku! };
	for (const qty of [before + 1, before]) {
		await run.step('UpdateStock', { endpoint: 'UpdateStock', body: { items: [{ ...row, qty }] } });
	}
	const same = (await readStock(run)) === before;
	const line = `stock of the test SKU set one higher and back: ${same ? 'as before' : 'differs'}`;
	run.check(same, line, 'the test SKU’s stock did not read as before after being set back');
}

/** The shipped shape files, by operation. */
export function readShapes(dir = SHAPES_DIR): Map<string, AnswerShape> {
	const files = readdirSync(dir).filter((file) => file.endsWith('.json'));
	return new Map(
		files.map((file) => [file.slice(0, -5), JSON.parse(readFileSync(join(dir, file), 'utf8'))]),
	);
}

/**
 * Each difference between the answers' shapes and the files, named `Operation: path`. An order
 * fact is compared only where both have it (a list of fewer than 2 has none).
 */
export function compareShapes(shapes: AnswerShape[], files: Map<string, AnswerShape>): string[] {
	const common = (a: AnswerShape, b: AnswerShape) =>
		Object.fromEntries(Object.entries(a.order).filter(([path]) => path in b.order));
	return shapes.flatMap((shape) => {
		const file = files.get(shape.operation);
		if (!file) return [`${shape.operation}: no shape file`];
		const [was, now] = [
			{ ...file, order: common(file, shape) },
			{ ...shape, order: common(shape, file) },
		];
		return diffShapes(was, now).map((difference) => `${shape.operation}: ${difference}`);
	});
}

/**
 * With `--update-shapes`: the shapes written, unless a check failed (a run refused, or answered
 * otherwise than 200, records errors, not the shapes of the operations). Gives the line to print.
 */
export function updateShapes(report: Report, dir = SHAPES_DIR): string {
	if (report.failures.length) {
		return `shapes not written: ${report.failures.length} checks failed (fix those first)`;
	}
	writeShapes(report.shapes, dir);
	return `shapes written: ${report.shapes.map((shape) => shape.operation).join(', ')}`;
}

export function writeShapes(shapes: AnswerShape[], dir = SHAPES_DIR): void {
	for (const shape of shapes) {
		writeFileSync(join(dir, `${shape.operation}.json`), `${JSON.stringify(shape, null, '\t')}\n`);
	}
}
