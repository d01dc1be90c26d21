/**
 * Which new deliveries may have run in an earlier n8n life. n8n 2.x creates a delivery's execution
 * before it saves the trigger's memory of deliveries and answers: n8n killed in between may have
 * run the delivery (to the end, even), while the service, with no 2xx, sends it again to the n8n
 * started after, where it is in no memory. Such a re-send is of an event published before this
 * life began; the trigger marks it `possibleDuplicate: true`, as the poll trigger marks an order
 * it may have emitted before n8n stopped.
 * Limit: "this life" is the process receiving the re-send; with several webhook processes, a
 * re-send to another process already running comes unmarked unless published before it started.
 */
import type { IDataObject } from 'n8n-workflow';

import { lifeAge, POSSIBLE_DUPLICATE, thisLife } from '../shared';

/** How far the service's clock may run ahead of n8n's: events published up to this long after this life began are marked too. */
export const CLOCK_SKEW_MS = 60_000;

/**
 * Without a readable `metadata.published_at`: new deliveries are marked while this life is younger
 * than this (longer than the emulator re-sends an unanswered delivery for, about 6 minutes; noon does not
 * document its own).
 */
export const UNDATED_MARK_MS = 10 * 60_000;

/** An ISO 8601 date and time with its offset, as noon writes `published_at`. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** The delivery's `metadata.published_at` in ms, when it is an ISO date and time; else undefined. */
export function publishedAt(delivery: IDataObject): number | undefined {
	const metadata = delivery.metadata;
	if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return undefined;
	const value = (metadata as IDataObject).published_at;
	if (typeof value !== 'string' || !ISO_DATE_TIME.test(value)) return undefined;
	const ms = Date.parse(value);
	return Number.isFinite(ms) ? ms : undefined;
}

/**
 * Whether a delivery the trigger has not seen may have run before this life: its event was
 * published before this life began (or up to `CLOCK_SKEW_MS` after), or, without a readable
 * date, this life is younger than `UNDATED_MARK_MS`.
 */
export function mayHaveRunBefore(delivery: IDataObject): boolean {
	const published = publishedAt(delivery);
	if (published === undefined) return lifeAge() < UNDATED_MARK_MS;
	return published < thisLife().startedAt + CLOCK_SKEW_MS;
}

/**
 * The delivery as the trigger outputs it: `possibleDuplicate` is the trigger's own field, true
 * when `marked`, else absent (a top-level `possibleDuplicate` the sender put in is removed).
 */
export function withMark(delivery: IDataObject, marked: boolean): IDataObject {
	if (!marked && !(POSSIBLE_DUPLICATE in delivery)) return delivery;
	const json = { ...delivery };
	delete json[POSSIBLE_DUPLICATE];
	if (marked) json[POSSIBLE_DUPLICATE] = true;
	return json;
}
