/**
 * Whose pacing a credential shares (gateway/url.ts `rateScope`), and whose 429 changes it
 * (auth/proven.ts, pacing/paced.ts), on virtual time.
 */
import { createHash } from 'crypto';

import { isProven, MAX_PROVEN_IDENTITIES, noteProven } from '../../dist/nodes/shared/auth/proven';
import { loginGate } from '../../dist/nodes/shared/auth/session';
import { rateScope } from '../../dist/nodes/shared/gateway/url';
import { paced } from '../../dist/nodes/shared/pacing/paced';
import { RunPolicy } from '../../dist/nodes/shared/pacing/policy';
import { PlanLimiter } from '../../dist/nodes/shared/pacing/rateLimiter';
import { VirtualClock } from '../helpers/virtualTime';

const project = { projectCode: 'PRJ1' };

describe('the rate scope', () => {
	it('is one per project for every host under noon.partners (sandbox counts against production)', () => {
		const scope = rateScope({ baseUrl: 'https://noon-api-gateway.noon.partners', ...project });
		for (const other of [
			{ gateway: 'noonSandbox', ...project },
			{ gateway: 'namshi', ...project },
			{ baseUrl: 'https://noon-sandbox-api-gateway.noon.partners/', projectCode: ' PRJ1 ' },
			{ baseUrl: 'https://NEW-GW.Noon.Partners:8443/api', ...project },
		]) {
			expect(rateScope(other)).toBe(scope);
		}
		expect(rateScope({ gateway: 'noon', projectCode: 'PRJ2' })).not.toBe(scope);
	});

	it('is the Base URL and project anywhere else: another port, path or host is another scope', () => {
		const local = rateScope({ baseUrl: 'http://127.0.0.1:8080', ...project });
		expect(rateScope({ baseUrl: ' HTTP://127.0.0.1:8080/ ', ...project })).toBe(local);
		for (const baseUrl of [
			'http://127.0.0.1:8081',
			'http://127.0.0.1:8080/other',
			'http://localhost:8080',
			'http://10.0.0.5:8080',
			'https://noon-api-gateway.noon.partners',
		]) {
			expect(rateScope({ baseUrl, ...project })).not.toBe(local);
		}
		expect(rateScope({ baseUrl: 'http://127.0.0.1:8080', projectCode: 'PRJ2' })).not.toBe(local);
	});

	it('is a digest of fixed size whatever was typed: a 1 MB Project Code makes a 64-character key', () => {
		const huge = 'P'.repeat(1024 * 1024);
		expect(rateScope({ gateway: 'noon', projectCode: huge })).toMatch(/^[0-9a-f]{64}$/);
		expect(rateScope({ baseUrl: `http://127.0.0.1:1/${huge}`, projectCode: huge })).toMatch(
			/^[0-9a-f]{64}$/,
		);
	});
});

/** A made-up login identity, as login.ts `loginFingerprint` makes them (a SHA-256 digest). */
const identity = (name: string) => createHash('sha256').update(name).digest('hex');

/** A 429 as n8n's HTTP client rejects with it. */
const tooMany = (retryAfter: string) =>
	Object.assign(new Error('Too Many Requests'), {
		response: { status: 429, headers: { 'retry-after': retryAfter }, data: {} },
	});

const answer = (status: number) =>
	Object.assign(new Error(`HTTP ${status}`), { response: { status, headers: {}, data: {} } });

describe("a 429 changes the scope's pacing only for a login identity proven here", () => {
	it('an unproven identity (a made-up session): its run gets the 429, nothing shared changes', async () => {
		const limiter = new PlanLimiter(1500, new VirtualClock());
		const gate = loginGate(identity('made-up'));
		await expect(
			paced(
				limiter,
				async () => await Promise.reject(tooMany('30')),
				new RunPolicy(undefined),
				gate,
			),
		).rejects.toThrow('Too Many Requests');
		expect(limiter.pauseLeft()).toBe(0);
		expect(limiter.backAt()).toBe(-Infinity);
		expect(limiter.share()).toBe(1);
		expect(limiter.delayUntilFree()).toBeLessThan(1000);
	});

	it('a proven identity: its 429 pauses the scope and cuts its share, as before', async () => {
		const limiter = new PlanLimiter(1500, new VirtualClock());
		const proven = identity('logged in');
		noteProven(proven);
		await expect(
			paced(
				limiter,
				async () => await Promise.reject(tooMany('30')),
				new RunPolicy(undefined),
				loginGate(proven),
			),
		).rejects.toThrow('Too Many Requests');
		expect(limiter.pauseLeft()).toBe(30_000);
		expect(limiter.share()).toBeLessThan(1);
	});

	it('a success (2xx) proves the identity; a 401, a 429 or a redirect does not', async () => {
		// A limiter each: the clock stands still, a second slot would wait for it.
		const send = async (who: string, status: number) =>
			await paced(
				new PlanLimiter(1500, new VirtualClock()),
				async () => (status < 300 ? 'answered' : await Promise.reject(answer(status))),
				new RunPolicy(undefined),
				loginGate(identity(who)),
			).catch(() => 'failed');
		for (const status of [401, 403, 429]) {
			expect(await send('stored', status)).toBe('failed');
			expect(isProven(identity('stored'))).toBe(false);
		}
		expect(await send('stored', 200)).toBe('answered');
		expect(isProven(identity('stored'))).toBe(true);
		// A redirect proves nothing: a gateway may send an unknown session to a sign-in page.
		expect(await send('redirected', 307)).toBe('failed');
		expect(isProven(identity('redirected'))).toBe(false);
	});

	it(`keeps the ${MAX_PROVEN_IDENTITIES} identities proven last, the oldest forgotten first`, () => {
		const first = identity('first');
		const kept = identity('proven again');
		noteProven(first);
		noteProven(kept);
		for (let i = 0; i < MAX_PROVEN_IDENTITIES - 2; i++) noteProven(identity(`filler ${i}`));
		noteProven(kept);
		noteProven(identity('one more'));
		expect(isProven(first)).toBe(false);
		expect(isProven(kept)).toBe(true);
		expect(isProven(identity('filler 0'))).toBe(true);
		noteProven(identity('and another'));
		expect(isProven(identity('filler 0'))).toBe(false);
	});
});
