/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * A health check as a load balancer or an uptime monitor runs it: `GET /healthz` on a fixed
 * schedule (a request every `everyMs`, sent whether or not the earlier ones were answered), each
 * answer's time recorded. A blocked event loop in n8n shows as answers that take as long as the
 * block (the requests sent meanwhile wait for it), however short the block.
 */
import { performance } from 'node:perf_hooks';

export interface HealthzSample {
	/** When the request was sent (epoch ms: comparable with n8n's and the emulator's times). */
	sentAt: number;
	/** How long until the whole answer arrived (ms), or until it failed. */
	ms: number;
	/** HTTP status; undefined when no answer came (`error` says why). */
	status?: number;
	error?: string;
}

export interface HealthzFigures {
	count: number;
	/** Answered 200. */
	ok: number;
	slowestMs: number;
	/** When the slowest one was sent (epoch ms). */
	slowestSentAt: number;
	medianMs: number;
	p99Ms: number;
	/** The largest gap between two consecutive sends (the schedule kept: close to `everyMs`). */
	largestSendGapMs: number;
}

/** One `GET /healthz`, timed; never throws. */
async function probe(baseUrl: string, timeoutMs: number): Promise<HealthzSample> {
	const sentAt = Date.now();
	const start = performance.now();
	try {
		const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
		await response.text();
		return { sentAt, ms: performance.now() - start, status: response.status };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { sentAt, ms: performance.now() - start, error: message };
	}
}

/**
 * Starts polling `baseUrl`/healthz every `everyMs` (on a fixed schedule from the start, not
 * drifting with the answers). `stop()` sends no more and gives every sample once all are answered.
 */
export function pollHealthz(baseUrl: string, everyMs = 100, timeoutMs = 10_000) {
	const started = performance.now();
	const pending: Array<Promise<HealthzSample>> = [];
	let sent = 0;
	let timer: NodeJS.Timeout | undefined;
	const next = () => {
		pending.push(probe(baseUrl, timeoutMs));
		sent++;
		const due = started + sent * everyMs;
		timer = setTimeout(next, Math.max(0, due - performance.now()));
	};
	next();
	return {
		async stop(): Promise<HealthzSample[]> {
			clearTimeout(timer);
			return await Promise.all(pending);
		},
	};
}

/**
 * The requests sent from `from` until `to` (epoch ms), each with the part of its wait before
 * `to`: how long n8n kept it waiting while something (a node's run) went on. What n8n does
 * after `to` (saving the execution's data, say) is not counted.
 */
export function sentWithin(samples: HealthzSample[], from: number, to: number): HealthzSample[] {
	return samples
		.filter((s) => s.sentAt >= from && s.sentAt < to)
		.map((s) => ({ ...s, ms: Math.min(s.ms, to - s.sentAt) }));
}

/** The figures of a poll: how many, how many answered 200, the slowest, the median, the 99th percentile. */
export function healthzFigures(samples: HealthzSample[]): HealthzFigures {
	const times = samples.map((s) => s.ms).sort((a, b) => a - b);
	const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
	const slowest = samples.reduce((a, b) => (b.ms > a.ms ? b : a), samples[0]);
	let largestSendGapMs = 0;
	for (let i = 1; i < samples.length; i++)
		largestSendGapMs = Math.max(largestSendGapMs, samples[i].sentAt - samples[i - 1].sentAt);
	return {
		count: samples.length,
		ok: samples.filter((s) => s.status === 200).length,
		slowestMs: Math.round(slowest?.ms ?? 0),
		slowestSentAt: slowest?.sentAt ?? 0,
		medianMs: Math.round(at(0.5)),
		p99Ms: Math.round(at(0.99)),
		largestSendGapMs,
	};
}
