/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The export download goes only where it should, a few at a time (two per credential), each
 * waiting for its place a bounded time, within its deadline: the emulator answers the
 * download_url it is told to, and a loopback server of the test serves the files, the redirects
 * and the slow answers, counting what reaches it. The emulator's Base URL is
 * on loopback (127.0.0.1), so the file server on 127.0.0.1 is the Base URL's own host; the rules
 * for a gateway on a public address are in test/unit/address.test.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { credentialFields } from '../emulator';
import { startFixture, workflowWithItems, type Fixture } from './fixture';

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, ms = 5000) {
	const end = Date.now() + ms;
	while (!condition()) {
		if (Date.now() > end) throw new Error('condition not met in time');
		await sleep(20);
	}
}

const CSV = 'order,sku\nORD-1,SKU-1\n';

/**
 * Paths: `/file/<name>` a small CSV; `/slow/<name>` the CSV after 300 ms; `/hold` an answer that
 * never ends; `/trickle` one byte every 100 ms, forever; `/redirect/<n>` n redirects, then the
 * CSV at `/file/redirected.csv`; `/to?url=` one redirect to `url`. Redirect answers carry a body that never ends: only a
 * client that destroys them lets their connection close.
 */
async function startFileServer() {
	const seen: string[] = [];
	const sockets = new Set<Socket>();
	let inFlight = 0;
	let mostInFlight = 0;
	const endless = (res: ServerResponse) => {
		const timer = setInterval(() => res.write('x'.repeat(16 * 1024)), 10);
		res.on('close', () => clearInterval(timer));
	};
	const handle = (req: IncomingMessage, res: ServerResponse) => {
		const url = new URL(req.url!, 'http://files');
		seen.push(url.pathname);
		inFlight++;
		mostInFlight = Math.max(mostInFlight, inFlight);
		res.on('close', () => inFlight--);
		const [, kind, arg] = url.pathname.split('/');
		const csv = { 'content-type': 'text/csv', 'content-length': String(CSV.length) };
		if (kind === 'file') return void res.writeHead(200, csv).end(CSV);
		if (kind === 'slow') return void setTimeout(() => res.writeHead(200, csv).end(CSV), 300);
		if (kind === 'hold') return void res.writeHead(200, { 'content-type': 'text/csv' }).write('a');
		if (kind === 'trickle') {
			res.writeHead(200, { 'content-type': 'text/csv' });
			const timer = setInterval(() => res.write('.'), 100);
			return void res.on('close', () => clearInterval(timer));
		}
		const location =
			kind === 'redirect'
				? Number(arg) > 1
					? `/redirect/${Number(arg) - 1}`
					: '/file/redirected.csv'
				: url.searchParams.get('url')!;
		res.writeHead(302, { location, 'content-type': 'text/plain' });
		endless(res);
	};
	const server = createServer(handle);
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		origin,
		seen,
		openSockets: () => sockets.size,
		mostInFlight: () => mostInFlight,
		reset() {
			seen.length = 0;
			mostInFlight = inFlight;
		},
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

let f: Fixture;
let files: Awaited<ReturnType<typeof startFileServer>>;
beforeAll(async () => {
	f = await startFixture({ ratePlan: null });
	files = await startFileServer();
});
afterAll(async () => {
	await files.close();
	await f.close();
});
beforeEach(() => {
	files.reset();
	f.emulator.clearRequests();
});

/** Another credential of the emulator, in its own project: its own share of the downloads. */
async function otherCredential(id: string): Promise<Credential> {
	const projectCode = `PRJ-${id.toUpperCase()}`;
	const credential = await f.emulator.addCredential({ projectCode });
	f.env.addCredential(
		id,
		'sellerPlatformApi',
		credentialFields({ baseUrl: f.emulator.baseUrl, credential }),
	);
	return { id, projectCode };
}

interface Credential {
	id: string;
	projectCode?: string;
}

/** A workflow that gets one complete export per link and downloads it (continue on fail). */
function downloads(links: string[], options: INodeParameters = {}, credential?: Credential) {
	const items = links.map((downloadUrl) => ({
		code: f.emulator.addExport({
			states: ['COMPLETE'],
			downloadUrl,
			projectCode: credential?.projectCode,
		}).export_code,
	}));
	return workflowWithItems(
		items,
		{
			resource: 'export',
			operation: 'getStatus',
			exportCode: '={{ $json.code }}',
			options: { download: true, concurrency: 10, ...options },
		},
		{
			continueOnFail: true,
			...(credential ? { credentials: { sellerPlatformApi: credential.id } } : {}),
		},
	);
}

async function run(links: string[], options: INodeParameters = {}, credential?: Credential) {
	const result = await f.env.runWorkflow(downloads(links, options, credential));
	return result.outputs('Seller Platform');
}

/** Settles like `promise`, or with 'still waiting' after `ms` (an old code's endless wait). */
const within = async <T>(promise: Promise<T>, ms: number) =>
	await Promise.race([promise, sleep(ms).then(() => 'still waiting' as const)]);

const errorsOf = (items: Awaited<ReturnType<typeof run>>) => items.map((item) => item.json.error);
const fileOf = (item: Awaited<ReturnType<typeof run>>[number]) =>
	Buffer.from(item.binary!.data.data, 'base64').toString('utf8');

describe('where the export download may go', () => {
	it('refuses plain http elsewhere, other schemes, and private, link-local and reserved addresses, before anything is sent', async () => {
		const refused: Array<[string, string]> = [
			[`http://localhost:${new URL(files.origin).port}/file/a.csv`, 'it uses http: (localhost)'],
			['data:text/csv,order%0AORD-1', 'it uses data:, and only https:'],
			['ftp://files.example/a.csv', 'it uses ftp: (files.example)'],
			['https://169.254.169.254/latest/meta-data/', 'a link-local address (169.254.169.254)'],
			['https://2852039166/latest/meta-data/', 'a link-local address (169.254.169.254)'],
			['https://[::ffff:a9fe:a9fe]/latest/', 'a link-local address ([::ffff:a9fe:a9fe])'],
			['https://[fe80::1]/a.csv', 'a link-local address ([fe80::1])'],
			['https://10.0.0.1/a.csv', 'a private address (10.0.0.1)'],
			['https://172.16.5.4/a.csv', 'a private address (172.16.5.4)'],
			['https://192.168.1.1/a.csv', 'a private address (192.168.1.1)'],
			['https://100.64.0.1/a.csv', 'a carrier-NAT address (100.64.0.1)'],
			['https://[fd00::1]/a.csv', 'a private address ([fd00::1])'],
			['https://224.0.0.1/a.csv', 'a reserved address (224.0.0.1)'],
		];
		const items = await run(refused.map(([link]) => link));
		expect(errorsOf(items)).toEqual(
			refused.map(([, why]) =>
				expect.stringMatching(
					new RegExp(
						`^The download link of the export \\(download_url\\) was not followed: .*${why.replace(/[[\]().]/g, '\\$&')}`,
					),
				),
			),
		);
		expect(items[0].json.details).toMatchObject({
			description: expect.stringContaining('downloaded over https: only'),
		});
		expect(files.seen).toEqual([]);
	});

	it('downloads from the Base URL own host over its scheme, through at most 3 redirects', async () => {
		const items = await run([`${files.origin}/file/plain.csv`, `${files.origin}/redirect/3`]);
		expect(errorsOf(items)).toEqual([undefined, undefined]);
		// Named after the address that served the file.
		expect(items.map((item) => item.binary?.data.fileName)).toEqual([
			'plain.csv',
			'redirected.csv',
		]);
		expect(fileOf(items[1])).toBe(CSV);
		expect([...files.seen].sort()).toEqual([
			'/file/plain.csv',
			'/file/redirected.csv',
			'/redirect/1',
			'/redirect/2',
			'/redirect/3',
		]);
	});

	it('refuses a fourth redirect and a redirect that breaks a rule, and destroys every answer it does not read', async () => {
		const items = await run([
			`${files.origin}/redirect/4`,
			`${files.origin}/to?url=${encodeURIComponent('https://169.254.169.254/latest/meta-data/')}`,
			`${files.origin}/to?url=${encodeURIComponent(`http://localhost:${new URL(files.origin).port}/file/a.csv`)}`,
			`${files.origin}/to?url=${encodeURIComponent('/file/report%zz.csv')}`,
			`${files.origin}/to?url=${encodeURIComponent('/redirect/2')}`,
		]);
		const notFollowed =
			'The download of the export was redirected, and the redirect was not followed';
		expect(errorsOf(items)).toEqual([
			'The download of the export was redirected more than 3 times; the next redirect was not followed',
			`${notFollowed}: it points at a link-local address (169.254.169.254), and the Base URL is not one`,
			`${notFollowed}: it uses http: (localhost), and only https: addresses (or the Base URL's own host) are downloaded`,
			`${notFollowed}: its path has a malformed percent-escape ("%zz")`,
			undefined,
		]);
		// The fourth redirect was not followed, and no refused target was asked for.
		expect(files.seen.filter((path) => path.startsWith('/redirect/')).sort()).toEqual([
			'/redirect/1',
			'/redirect/1',
			'/redirect/2',
			'/redirect/2',
			'/redirect/3',
			'/redirect/4',
		]);
		expect(files.seen.filter((path) => path.startsWith('/file/'))).toEqual([
			'/file/redirected.csv',
		]);
		// Every redirect answer has a body that never ends: its connection closes only when the
		// node destroys it.
		await waitFor(() => files.openSockets() === 0, 3000);
	});

	it('refuses a download_url whose path has a malformed percent-escape, naming it, before sending', async () => {
		const items = await run([
			`${files.origin}/file/report%zz.csv`,
			`${files.origin}/file/report%C3%28.csv`,
		]);
		expect(errorsOf(items)).toEqual([
			'The download link of the export (download_url) was not followed: its path has a malformed percent-escape ("%zz")',
			'The download link of the export (download_url) was not followed: its path has a malformed percent-escape (escapes that are not UTF-8 text)',
		]);
		expect(JSON.stringify(items)).not.toContain('URIError');
		expect(files.seen).toEqual([]);
	});
});

describe('how many downloads at once, and for how long', () => {
	it('keeps at most 2 downloads of a credential in flight, a second one only while fewer than 4 run; the others wait their turn', async () => {
		const links = Array.from({ length: 10 }, (_, i) => `${files.origin}/slow/part-${i}.csv`);
		const items = await run(links);
		expect(errorsOf(items)).toEqual(links.map(() => undefined));
		expect(items.map((item) => item.binary?.data.fileName)).toEqual(
			links.map((_, i) => `part-${i}.csv`),
		);
		expect(files.mostInFlight()).toBe(2);

		// Three credentials at once: two each while fewer than 4 run, and a credential with none
		// running has its first place beyond those 4: four or five in all, never six.
		files.reset();
		const credentials = [undefined, await otherCredential('b'), await otherCredential('c')];
		const runs = await Promise.all(
			credentials.map(async (credential) => await run(links.slice(0, 4), {}, credential)),
		);
		expect(runs.flatMap(errorsOf)).toEqual(Array.from({ length: 12 }, () => undefined));
		expect(files.mostInFlight()).toBeGreaterThanOrEqual(4);
		expect(files.mostInFlight()).toBeLessThanOrEqual(5);
	});

	it('starts another credential’s download at once while one credential’s slow downloads hold their share', async () => {
		const b = await otherCredential('share');
		// Credential 1's downloads never end: they hold its two places, the others wait in line.
		const holding = await f.env.startExecution(
			downloads(Array.from({ length: 6 }, () => `${files.origin}/hold`)),
		);
		await waitFor(() => files.seen.length >= 2);
		await sleep(300);
		const startedAt = Date.now();
		// Put in line behind credential 1's downloads, it would wait the whole 300 s budget.
		const items = await within(run([`${files.origin}/file/b.csv`], {}, b), 10_000);
		const took = Date.now() - startedAt;
		holding.cancel();
		await holding.finished;
		expect(items).not.toBe('still waiting');
		const [item] = items as Awaited<ReturnType<typeof run>>;
		expect(item.json.error).toBeUndefined();
		expect(fileOf(item)).toBe(CSV);
		// Idle well under 0.1 s (a login and a download); 'still waiting' above is the broken case.
		expect(took).toBeLessThan(3000);
		expect(files.seen.filter((path) => path === '/hold')).toHaveLength(2);
		await waitFor(() => files.openSockets() === 0, 3000);
	});

	it('fails a download that finds no free place within the waiting budget, saying downloads are busy', async () => {
		const holding = await f.env.startExecution(
			downloads(Array.from({ length: 4 }, () => `${files.origin}/hold`)),
		);
		await waitFor(() => files.seen.length >= 2);
		await sleep(300);
		const startedAt = Date.now();
		const items = await within(
			run([`${files.origin}/file/late.csv`], { waitingBudgetSeconds: 1 }),
			15_000,
		);
		const took = Date.now() - startedAt;
		holding.cancel();
		await holding.finished;
		expect(items).not.toBe('still waiting');
		const [item] = items as Awaited<ReturnType<typeof run>>;
		expect(item.json.error).toBe(
			'Export downloads are busy: no download place was free within 1 s, so the export file was not downloaded',
		);
		expect(item.json.details).toMatchObject({
			description: expect.stringContaining(
				'at most 2 export files at once per credential (the second while fewer than 4 run in all) and 16 in all, and other downloads held the places the whole time',
			),
		});
		// The 1 s budget, plus a login and a status read (idle well under 0.5 s); a budget not kept
		// waits as long as the places are held, 'still waiting' above.
		expect(took).toBeGreaterThanOrEqual(900);
		expect(took).toBeLessThan(5000);
		expect(files.seen).not.toContain('/file/late.csv');
		await waitFor(() => files.openSockets() === 0, 3000);
	});

	it('ends the downloads waiting in line at once when the user stops the execution', async () => {
		const started = await f.env.startExecution(
			downloads(Array.from({ length: 8 }, () => `${files.origin}/hold`)),
		);
		await waitFor(() => files.seen.length >= 2);
		await sleep(500);
		// Two answers that never end hold the credential's two places; the other six wait in line.
		expect(files.seen).toHaveLength(2);
		const stoppedAt = Date.now();
		started.cancel();
		await started.finished;
		// Idle a few ms; a line the stop does not end waits for a place up to the 300 s budget.
		expect(Date.now() - stoppedAt).toBeLessThan(3000);
		await sleep(300);
		expect(files.seen).toHaveLength(2);
		await waitFor(() => files.openSockets() === 0, 3000);
	});

	it('ends a trickling download at its total deadline, then downloads as usual in the same process', async () => {
		const startedAt = Date.now();
		// Five slow files for the credential's two places: three rounds of 1 s.
		const slow = await run(
			Array.from({ length: 5 }, () => `${files.origin}/trickle`),
			{ downloadTimeoutSeconds: 1 },
		);
		const took = Date.now() - startedAt;
		expect(errorsOf(slow)).toEqual(
			slow.map(() => 'The export file did not finish downloading within 1 s'),
		);
		expect(slow[0].json.details).toMatchObject({
			description: expect.stringContaining('"Download Timeout (Seconds)"'),
		});
		// Three rounds of the 1 s deadline at least (two places); a deadline not kept trickles on
		// forever. 10 s leaves room for a loaded machine and stays a third of the test's timeout.
		expect(took).toBeGreaterThanOrEqual(3000);
		expect(took).toBeLessThan(10_000);
		await waitFor(() => files.openSockets() === 0, 3000);

		files.reset();
		const [item] = await run([`${files.origin}/file/after.csv`], { downloadTimeoutSeconds: 1 });
		expect(item.json.error).toBeUndefined();
		expect(fileOf(item)).toBe(CSV);
	}, 30_000);

	it('ends a download at once when the user stops the execution', async () => {
		const started = await f.env.startExecution(downloads([`${files.origin}/trickle`]));
		await waitFor(() => files.seen.length === 1);
		await sleep(200);
		const stoppedAt = Date.now();
		started.cancel();
		await started.finished;
		// Idle a few ms; a stop not honoured trickles on up to the 600 s download timeout (a hang).
		expect(Date.now() - stoppedAt).toBeLessThan(3000);
		await waitFor(() => files.openSockets() === 0, 3000);
	});

	it.each([0, -1, 'soon', 3601, '3600.5', 2_147_484])(
		'refuses a Download Timeout of %p, naming the option, before anything is sent',
		async (downloadTimeoutSeconds) => {
			const [item] = await run([`${files.origin}/file/a.csv`], { downloadTimeoutSeconds });
			expect(item.json.error).toBe(
				'The option "Download Timeout (Seconds)" (downloadTimeoutSeconds) must be a positive number of at most 3600 (one hour)',
			);
			expect(f.emulator.requests()).toEqual([]);
			expect(files.seen).toEqual([]);
		},
	);
});
