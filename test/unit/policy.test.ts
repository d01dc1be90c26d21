/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The run's limits: waiting budget, circuit breaker, cancellation; and redaction of echoed secrets.
 * Real timers, short waits.
 */
import { ExecutionStopped } from '../../nodes/api/abort';
import { PolicyStop } from '../../nodes/api/errors';
import { paced, RunPolicy, withRetries } from '../../nodes/api/policy';
import { PlanLimiter } from '../../nodes/api/rateLimiter';
import { cookieSecrets, redact, redactValue } from '../../nodes/api/redact';
import { limiters } from '../../nodes/api/state';

/** The shape of an HTTP answer as n8n's request helpers reject with it. */
const answer = (status: number, headers: Record<string, string> = {}) =>
	Object.assign(new Error(`Request failed with status code ${status}`), {
		response: { status, headers, data: { message: `HTTP ${status}` } },
	});

describe('waiting budget', () => {
	it('fails a wait beyond the budget at once, saying when the service takes requests again', async () => {
		const policy = new RunPolicy(undefined, 5_000);
		const started = Date.now();
		const error = await policy.waitOut(3_600_000, 429, true).catch((e: unknown) => e);
		expect(Date.now() - started).toBeLessThan(100);
		expect(error).toBeInstanceOf(PolicyStop);
		expect((error as PolicyStop).message).toMatch(
			/takes requests again at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d.\d{3}Z \(Retry-After 3600 s\), beyond this run's waiting budget/,
		);
		expect((error as PolicyStop).description).toContain('Waiting Budget (Seconds)');
		expect((error as PolicyStop).httpStatus).toBe(429);
	});

	it('counts waits that overlap once (wall time), and spends the budget across items', async () => {
		const policy = new RunPolicy(undefined, 500);
		await Promise.all([policy.waitOut(200, 429, true), policy.waitOut(200, 429, true)]);
		await policy.waitOut(200, 429, true); // about 400 ms spent, not 600
		await expect(policy.waitOut(200, 429, true)).rejects.toBeInstanceOf(PolicyStop);
	});

	it('makes withRetries fail the item when a Retry-After is beyond it', async () => {
		let calls = 0;
		const send = async () => {
			calls++;
			throw answer(429, { 'retry-after': '3600' });
		};
		await expect(withRetries(true, send, new RunPolicy(undefined, 10_000))).rejects.toBeInstanceOf(
			PolicyStop,
		);
		expect(calls).toBe(1);
	});
});

describe('circuit breaker', () => {
	it('stops after N consecutive 429/5xx answers across items and sends nothing more', async () => {
		const policy = new RunPolicy(undefined, 60_000, 3);
		let calls = 0;
		const failing = async () => {
			calls++;
			throw answer(503);
		};
		const first = await withRetries(true, failing, policy).catch((e: unknown) => e);
		expect(first).toBeInstanceOf(PolicyStop);
		expect((first as PolicyStop).message).toBe(
			'Stopped after 3 consecutive failed answers (HTTP 503) from the Seller Platform API',
		);
		expect(calls).toBe(3);
		const ok = jest.fn(async () => 'never sent');
		await expect(withRetries(true, ok, policy)).rejects.toBeInstanceOf(PolicyStop);
		expect(ok).not.toHaveBeenCalled();
	});

	it('closes again on a success: only consecutive failures count', async () => {
		const policy = new RunPolicy(undefined, 60_000, 3);
		const answers = [503, 503, 200, 503, 503, 200];
		let i = 0;
		const send = async () => {
			const status = answers[i++];
			if (status !== 200) throw answer(status);
			return status;
		};
		expect(await withRetries(true, send, policy)).toBe(200);
		expect(await withRetries(true, send, policy)).toBe(200);
		expect(i).toBe(6);
	});
});

describe('stopping the execution', () => {
	it('ends a Retry-After wait within a moment', async () => {
		const controller = new AbortController();
		const policy = new RunPolicy(controller.signal);
		const send = async () => {
			throw answer(429, { 'retry-after': '60' });
		};
		const started = Date.now();
		setTimeout(() => controller.abort(), 50);
		await expect(withRetries(true, send, policy)).rejects.toBeInstanceOf(ExecutionStopped);
		expect(Date.now() - started).toBeLessThan(1000);
	});

	it('ends a wait for a slot of the rate plan, and sends nothing', async () => {
		const limiter = new PlanLimiter(1, {
			now: () => Date.now(),
			sleep: async (ms, signal) => {
				await new Promise((resolve, reject) => {
					const timer = setTimeout(resolve, ms);
					signal?.addEventListener('abort', () => {
						clearTimeout(timer);
						reject(new Error('aborted'));
					});
				});
			},
		});
		(await limiter.acquire()).finished(); // the plan's one slot of this minute is used
		const controller = new AbortController();
		const send = jest.fn(async () => 'sent');
		setTimeout(() => controller.abort(), 50);
		const started = Date.now();
		await expect(paced(limiter, send, new RunPolicy(controller.signal))).rejects.toBeInstanceOf(
			ExecutionStopped,
		);
		expect(Date.now() - started).toBeLessThan(1000);
		expect(send).not.toHaveBeenCalled();
		expect(limiter.delayUntilFree()).toBeGreaterThan(50_000); // the aborted turn took no slot
	});

	it('ends a wait in the shared limiter of the package too', async () => {
		const limiter = limiters.get('test-scope', 'GetPurchaseOrder', 1);
		(await limiter.acquire()).finished();
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 50);
		await expect(
			paced(limiter, async () => 'sent', new RunPolicy(controller.signal)),
		).rejects.toBeInstanceOf(ExecutionStopped);
	});
});

describe('redaction', () => {
	const cookie = '_npsid=ab"c\\d; other=xyz123';

	it('removes a secret however it is echoed: raw, JSON-escaped or URL-encoded', () => {
		const secrets = cookieSecrets(cookie);
		expect(secrets).toEqual([cookie, 'ab"c\\d', 'xyz123']);
		expect(redact('got ab"c\\d', secrets)).toBe('got <redacted>');
		expect(redact(`body {"cookie":${JSON.stringify(cookie)}}`, secrets)).toBe(
			'body {"cookie":"<redacted>"}',
		);
		expect(redact(`q=${encodeURIComponent('ab"c\\d')}`, secrets)).toBe('q=<redacted>');
	});

	it('walks every string of a JSON value, keys included', () => {
		const details = [{ echoed: cookie, [cookie]: 1, nested: ['xyz123'] }];
		const clean = redactValue(details, cookieSecrets(cookie));
		expect(JSON.stringify(clean)).not.toMatch(/xyz123|ab\\"c/);
		expect(clean).toEqual([{ echoed: '<redacted>', '<redacted>': 1, nested: ['<redacted>'] }]);
	});
});
