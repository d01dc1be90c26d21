/**
 * Reading the details of listed orders for the poll trigger: GetFbpiOrder for each entry without
 * its list of items, a few at once (the package's pacing still applies to each), within the
 * poll's time budget. An answer that is not the order asked for (another fbpi_order_nr, another
 * shape) is a failed read. A failed read is that order's alone: the others are read on. A stop
 * of the execution ends the poll; once the run can send no more (its circuit breaker or waiting
 * budget), or once the budget has ended, the orders not read yet are left for the next poll.
 */
import { NodeApiError, type IDataObject, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import { apiRequest, monotonicNow, runPolicy } from '../shared';
import type { PageBudget } from './listing';
import type { Outcome, Work } from './pending';

/** GetFbpiOrder requests one poll has in flight at most. */
export const DETAIL_READS_AT_ONCE = 4;

/** Whether the list entry lacks its items (then GetFbpiOrder gives the whole order). */
export const needsDetails = (order: IDataObject) => !Array.isArray(order.items);

/** The whole order (GetFbpiOrder). */
export async function readOrder(ctx: IPollFunctions, fbpi_order_nr: string): Promise<IDataObject> {
	return await apiRequest.call(ctx, 'GetFbpiOrder', { pathParams: { fbpi_order_nr } });
}

/** Whether the run sends no more: stopped, its circuit breaker open, or its waiting budget spent. */
function runEnded(ctx: IPollFunctions): boolean {
	try {
		runPolicy(ctx).checkBreaker();
		return false;
	} catch {
		return true;
	}
}

/** Whether GetFbpiOrder's answer is the order asked for: its number, whatever case or spaces. */
const isOrder = (answer: IDataObject, orderNr: string) =>
	typeof answer.fbpi_order_nr === 'string' &&
	answer.fbpi_order_nr.trim().toUpperCase() === orderNr.trim().toUpperCase();

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Reads one order's details into the outcome; gives whether the run sends no more. A stop of the
 * execution ends the poll (nothing recorded).
 */
async function readInto(ctx: IPollFunctions, item: Work, outcome: Outcome): Promise<boolean> {
	const orderNr = String(item.listed.order.fbpi_order_nr);
	let failed: unknown;
	try {
		const order = await readOrder(ctx, orderNr);
		if (isOrder(order, orderNr)) {
			outcome.ready.push({ ...item, listed: { ...item.listed, order } });
			return false;
		}
		// Another order, or an answer of another shape: not this order's details.
		failed = new Error(`The Seller Platform API answered GetFbpiOrder without this order`);
	} catch (error) {
		failed = error;
	}
	if (runPolicy(ctx).signal?.aborted) {
		if (failed instanceof NodeApiError) throw failed;
		throw new NodeApiError(ctx.getNode(), { message: messageOf(failed) } as JsonObject);
	}
	outcome.failed.push({ ...item, message: messageOf(failed) });
	return runEnded(ctx);
}

/**
 * The details of the work's orders, in its order: each read at most once. The first
 * `DETAIL_READS_AT_ONCE` are read even when the budget has ended (each poll makes progress).
 */
export async function readDetails(
	ctx: IPollFunctions,
	work: readonly Work[],
	budget: PageBudget,
): Promise<Outcome> {
	const outcome: Outcome = { ready: [], failed: [], unreached: [] };
	const queue: Work[] = [];
	for (const item of work) (needsDetails(item.listed.order) ? queue : outcome.ready).push(item);
	let started = 0;
	let ended = false;
	const readNext = async (): Promise<void> => {
		for (let item = queue.shift(); item; item = queue.shift()) {
			if (ended || (started >= DETAIL_READS_AT_ONCE && monotonicNow() > budget.until)) {
				outcome.unreached.push(item);
				continue;
			}
			started++;
			ended = (await readInto(ctx, item, outcome)) || ended;
		}
	};
	const readers = Math.min(DETAIL_READS_AT_ONCE, queue.length);
	try {
		await Promise.all(Array.from({ length: readers }, readNext));
	} finally {
		ended = true;
	}
	return outcome;
}
