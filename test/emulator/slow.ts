/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Slow answers of injected faults, as a stalled gateway or a slow proxy gives them: a request
 * that is never answered (`hang`), and an answer whose body trickles out one byte at a time
 * (`trickleMs`), which no idle time-out ever ends. Both note when the client gives up and closes
 * the connection before the answer is complete.
 */
import type { ServerResponse } from 'node:http';

import { invalidArgument } from './errors';

/** Checks the `hang` and `trickleMs` fields of a fault spec given as untrusted input. */
export function validateSlow(spec: {
	hang?: unknown;
	trickleMs?: unknown;
	status?: unknown;
	reset?: unknown;
	redirect?: unknown;
}): void {
	if (spec.hang !== undefined && typeof spec.hang !== 'boolean')
		throw invalidArgument('fault hang must be a boolean');
	if (spec.trickleMs !== undefined) {
		const ms = spec.trickleMs;
		if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 1 || ms > 60_000) {
			throw invalidArgument('fault trickleMs must be a number of ms from 1 to 60000');
		}
	}
	if (spec.hang && (spec.status !== undefined || spec.reset || spec.redirect || spec.trickleMs)) {
		throw invalidArgument(
			'a hanging fault never answers: it takes no status, reset, redirect or trickleMs',
		);
	}
}

/** Leaves the request unanswered; `onGone` runs when the client closes the connection. */
export function hang(res: ServerResponse, onGone: () => void): void {
	res.once('close', onGone);
}

/**
 * Makes `res` send its status and headers at once, then its body one byte every `everyMs`
 * (whatever writes it: a JSON answer, an error, a streamed file). `onGone` runs when the client
 * closes the connection before the whole body was sent.
 */
export function trickle(res: ServerResponse, everyMs: number, onGone: () => void): void {
	const write = res.write.bind(res) as (chunk: Buffer) => boolean;
	const end = res.end.bind(res) as () => ServerResponse;
	const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
	const pending: Buffer[] = [];
	let ending = false;
	let timer: NodeJS.Timeout | undefined;

	const drip = () => {
		timer = undefined;
		if (res.destroyed) return;
		const chunk = pending[0];
		if (chunk) {
			write(chunk.subarray(0, 1));
			if (chunk.length > 1) pending[0] = chunk.subarray(1);
			else pending.shift();
		}
		if (pending.length) timer = setTimeout(drip, everyMs);
		else if (ending) end();
	};
	const queue = (chunk: unknown, encoding?: unknown) => {
		if (typeof chunk === 'string') {
			pending.push(
				Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
			);
		} else if (chunk instanceof Uint8Array && chunk.length) {
			pending.push(Buffer.from(chunk));
		}
		timer ??= setTimeout(drip, everyMs);
	};
	const callbackOf = (args: unknown[]) =>
		args.find((arg): arg is () => void => typeof arg === 'function');

	res.writeHead = ((...args: unknown[]) => {
		const result = writeHead(...args);
		res.flushHeaders();
		return result;
	}) as typeof res.writeHead;
	res.write = ((chunk: unknown, ...rest: unknown[]) => {
		queue(chunk, rest[0]);
		callbackOf(rest)?.();
		return true;
	}) as typeof res.write;
	res.end = ((...args: unknown[]) => {
		if (typeof args[0] !== 'function') queue(args[0], args[1]);
		ending = true;
		timer ??= setTimeout(drip, everyMs);
		const callback = callbackOf(args);
		if (callback) res.once('finish', callback);
		return res;
	}) as typeof res.end;
	res.once('close', () => {
		if (timer) clearTimeout(timer);
		if (!res.writableFinished) onGone();
	});
}
