/** Injected faults: a FIFO queue of specs, each consumed by the API requests it applies to. */
import { validateAnswerShape } from './answer';
import { validateEcho } from './echo';
import { invalidArgument } from './errors';
import { validateHuge } from './huge';
import { validateSlow } from './slow';
import type { FaultSpec } from './types';

const isNonNegativeNumber = (value: unknown): value is number =>
	typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** Checks a fault spec given as untrusted input (control API). */
export function validateFaultSpec(input: unknown): FaultSpec {
	if (input === null || typeof input !== 'object' || Array.isArray(input)) {
		throw invalidArgument('fault spec must be a JSON object');
	}
	const spec = input as Record<keyof FaultSpec, unknown>;
	if (typeof spec.count !== 'number' || !Number.isInteger(spec.count) || spec.count < 1) {
		throw invalidArgument('fault count must be an integer >= 1');
	}
	if (spec.status !== undefined) {
		if (
			typeof spec.status !== 'number' ||
			!Number.isInteger(spec.status) ||
			spec.status < 400 ||
			spec.status > 599
		) {
			throw invalidArgument('fault status must be an HTTP error status (400-599)');
		}
	}
	if (spec.delayMs !== undefined && !isNonNegativeNumber(spec.delayMs)) {
		throw invalidArgument('fault delayMs must be a number >= 0');
	}
	if (spec.reset !== undefined && typeof spec.reset !== 'boolean')
		throw invalidArgument('fault reset must be a boolean');
	if (spec.lostAnswer !== undefined && typeof spec.lostAnswer !== 'boolean')
		throw invalidArgument('fault lostAnswer must be a boolean');
	if (
		spec.lostAnswer &&
		(spec.status !== undefined ||
			spec.reset ||
			spec.redirect ||
			spec.hang ||
			spec.huge ||
			spec.answer !== undefined ||
			spec.trickleMs !== undefined)
	) {
		throw invalidArgument(
			'a lostAnswer fault runs the operation, then resets the connection: it takes only delayMs',
		);
	}
	if (spec.retryAfter !== undefined && !isNonNegativeNumber(spec.retryAfter)) {
		throw invalidArgument('fault retryAfter must be a number of seconds >= 0');
	}
	if (spec.operation !== undefined && typeof spec.operation !== 'string') {
		throw invalidArgument('fault operation must be a string');
	}
	if (spec.message !== undefined && typeof spec.message !== 'string')
		throw invalidArgument('fault message must be a string');
	validateEcho(spec.echo);
	if (spec.redirect !== undefined) {
		const redirect = spec.redirect as { location?: unknown; status?: unknown } | null;
		if (!redirect || typeof redirect.location !== 'string' || !redirect.location) {
			throw invalidArgument('fault redirect needs a location');
		}
		if (
			redirect.status !== undefined &&
			![301, 302, 303, 307, 308].includes(redirect.status as number)
		) {
			throw invalidArgument('fault redirect status must be 301, 302, 303, 307 or 308');
		}
	}
	validateSlow(spec);
	validateAnswerShape(spec.answer);
	if (spec.answer !== undefined && (spec.status !== undefined || spec.redirect || spec.reset)) {
		throw invalidArgument(
			"an answer fault reshapes the operation's own answer: it takes no status, redirect or reset",
		);
	}
	validateHuge(spec.huge);
	if (spec.huge && (spec.hang || spec.reset || spec.redirect || spec.trickleMs !== undefined)) {
		throw invalidArgument('a huge answer takes no hang, reset, redirect or trickleMs');
	}
	if (
		spec.status === undefined &&
		spec.delayMs === undefined &&
		!spec.reset &&
		!spec.lostAnswer &&
		!spec.redirect &&
		!spec.hang &&
		spec.trickleMs === undefined &&
		spec.answer === undefined &&
		!spec.huge
	) {
		throw invalidArgument(
			'a fault needs status, delayMs, reset, lostAnswer, redirect, hang, trickleMs, answer or huge',
		);
	}
	return { ...(input as FaultSpec) };
}

export class FaultQueue {
	private readonly pending: Array<{ spec: FaultSpec; remaining: number }> = [];

	add(spec: FaultSpec): void {
		this.pending.push({ spec: validateFaultSpec(spec), remaining: spec.count });
	}

	clear(): void {
		this.pending.length = 0;
	}

	/** Consumes one use of the first queued fault that applies to `operation`, if any. */
	take(operation: string | null): FaultSpec | undefined {
		const index = this.pending.findIndex(
			(f) => f.spec.operation === undefined || f.spec.operation === operation,
		);
		if (index === -1) return undefined;
		const fault = this.pending[index];
		if (--fault.remaining === 0) this.pending.splice(index, 1);
		return fault.spec;
	}
}
