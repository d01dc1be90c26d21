/** The slice of the emulator's request log the benchmarks need (no headers, no big bodies). */
import type { RequestLogEntry } from '../emulator';

export interface Arrival {
	seq: number;
	/** Receipt time at the emulator, ms since the epoch. */
	at: number;
	operation: string | null;
	/** Request target as received. */
	path: string;
	status: number | null;
	/** `client_reference` of a JSON body, when it has one. */
	clientReference?: string;
	/** Number of `items.data` entries of a JSON body (barcode imports). */
	mappings?: number;
	/** Size of the JSON body as re-serialised, in bytes (barcode imports). */
	bodyBytes?: number;
	/** Number of `items` rows of a JSON body (the stock and pricing batches). */
	rows?: number;
}

export function summarise(entries: RequestLogEntry[], operation?: string): Arrival[] {
	return entries
		.filter((entry) => operation === undefined || entry.operation === operation)
		.map((entry) => {
			const arrival: Arrival = {
				seq: entry.seq,
				at: entry.at,
				operation: entry.operation,
				path: entry.path,
				status: entry.status,
			};
			const body = entry.body as {
				client_reference?: unknown;
				items?: { data?: unknown } | unknown[];
			} | null;
			if (body && typeof body === 'object') {
				if (typeof body.client_reference === 'string')
					arrival.clientReference = body.client_reference;
				if (Array.isArray(body.items)) arrival.rows = body.items.length;
				else if (Array.isArray(body.items?.data)) {
					arrival.mappings = body.items.data.length;
					arrival.bodyBytes = Buffer.byteLength(JSON.stringify(body));
				}
			}
			return arrival;
		});
}
