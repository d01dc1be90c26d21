/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Huge answers of injected faults, as a broken proxy or a hostile server gives them: a JSON body
 * of `megabytes` MB (`{"padding":"xxx…"}`), plain or as a gzip bomb (`gzip: true`: sent with
 * `Content-Encoding: gzip`, about a thousandth of its decoded size on the wire). Generated as it is
 * sent, with back-pressure, so the emulator never holds more than a chunk of it; a client that
 * closes the connection early stops the generation and is noted.
 */
import type { ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';

import { invalidArgument } from './errors';

export interface HugeSpec {
	/** Decoded size of the body, in MiB (1 to 4096). */
	megabytes: number;
	/** Sent gzip-compressed, with `Content-Encoding: gzip`. */
	gzip?: boolean;
}

/** Checks the `huge` field of a fault spec given as untrusted input. */
export function validateHuge(value: unknown): void {
	if (value === undefined) return;
	const spec = value as Partial<Record<keyof HugeSpec, unknown>> | null;
	if (!spec || typeof spec !== 'object' || Array.isArray(spec)) {
		throw invalidArgument('fault huge must be an object { megabytes, gzip? }');
	}
	const mb = spec.megabytes;
	if (typeof mb !== 'number' || !Number.isFinite(mb) || mb < 1 || mb > 4096) {
		throw invalidArgument('fault huge.megabytes must be a number from 1 to 4096');
	}
	if (spec.gzip !== undefined && typeof spec.gzip !== 'boolean') {
		throw invalidArgument('fault huge.gzip must be a boolean');
	}
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');
const HEAD = Buffer.from('{"padding":"');
const TAIL = Buffer.from('"}');

/** The decoded body, generated chunk by chunk as the reader asks for it. */
function hugeBody(bytes: number): Readable {
	let left = Math.max(0, bytes - HEAD.length - TAIL.length);
	let started = false;
	return new Readable({
		read() {
			if (!started) {
				started = true;
				this.push(HEAD);
			}
			if (left === 0) {
				this.push(TAIL);
				this.push(null);
				return;
			}
			const size = Math.min(left, CHUNK.length);
			left -= size;
			this.push(size === CHUNK.length ? CHUNK : CHUNK.subarray(0, size));
		},
	});
}

/**
 * Answers `status` with the huge body. `onGone` runs when the client closes the connection
 * before the whole body was sent; `onSent` once it was.
 */
export function sendHuge(
	res: ServerResponse,
	spec: HugeSpec,
	status: number,
	onGone: () => void,
	onSent: () => void,
): void {
	const body = hugeBody(Math.round(spec.megabytes * 1024 * 1024));
	res.writeHead(status, {
		'Content-Type': 'application/json',
		...(spec.gzip ? { 'Content-Encoding': 'gzip' } : {}),
	});
	const done = (error?: Error | null) => {
		if (error || !res.writableFinished) onGone();
		else onSent();
	};
	if (spec.gzip) pipeline(body, createGzip({ level: 9 }), res, done);
	else pipeline(body, res, done);
}
