/**
 * Downloads a file the service links to (an export's download_url) straight into n8n's binary
 * data, as a stream: where n8n keeps binary data on disk (filesystem mode) the file never sits in
 * memory. The link is a signed address, often on another host, so the session cookie is NOT sent
 * with it. Bounds:
 * - where it goes (address.ts): https: only, or the Base URL's own scheme and host; no loopback,
 *   private or link-local address unless the Base URL is one; at most 3 redirects, each checked
 *   the same way (n8n follows none itself); every answer not read is destroyed;
 * - fair places (`downloadSlots`): at most `MAX_DOWNLOADS_PER_CREDENTIAL` of one credential, a
 *   shared pool of `SHARED_DOWNLOAD_PLACES`, and a credential's first place always beyond it, up to
 *   `MAX_DOWNLOADS_IN_FLIGHT` in the process; the others wait in line for at most the run's
 *   waiting budget;
 * - a total deadline for the whole file (not an idle time-out), at most
 *   `MAX_DOWNLOAD_TIMEOUT_SECONDS` (so a place is held at most that long), the size cap, the
 *   user's stop.
 */
import { createHash } from 'crypto';
import type { IBinaryData, ICredentialDataDecryptedObject, IExecuteFunctions } from 'n8n-workflow';

import { deadline, withinDeadline } from '../common/abort';
import { CREDENTIAL_TYPE, USER_AGENT } from '../common/constants';
import { gatewayBaseUrl } from '../credential/baseUrl';
import { baseUrlField } from '../credential/fields';
import { apiError, PolicyStop } from '../errors/errors';
import { DOWNLOAD_RULES, downloadTargetProblem } from '../gateway/address';
import { baseUrlProblem, gatewayScope, localNamesAllowed } from '../gateway/url';
import { waitingBudgetOption } from '../pacing/options';
import type { RunPolicy } from '../pacing/policy';
import { withRetries } from '../pacing/retries';
import { Slots } from '../pacing/slots';
import { RETRY_POLICY } from '../pacing/waits';
import {
	downloadTimeoutOption,
	MAX_DOWNLOAD_TIMEOUT_SECONDS,
	maxFileSizeOption,
} from './downloadOptions';
import { runPolicy } from './run';

/** Redirects followed from a download link, each checked like the link itself. */
export const MAX_DOWNLOAD_REDIRECTS = 3;

/**
 * Export downloads at once: of one credential; shared by all (a credential's second place comes
 * from these); in the process (a credential's first place may go beyond the shared ones).
 */
export const MAX_DOWNLOADS_PER_CREDENTIAL = 2;
export const SHARED_DOWNLOAD_PLACES = 4;
export const MAX_DOWNLOADS_IN_FLIGHT = 16;

/**
 * Export downloads in flight in this process, keyed by credential (`placeKey`): one credential
 * runs at most `MAX_DOWNLOADS_PER_CREDENTIAL`; its second comes from `SHARED_DOWNLOAD_PLACES`; a
 * credential with none running always gets its first, up to `MAX_DOWNLOADS_IN_FLIGHT` in all. So
 * credentials whose downloads never end (each ended by its Download Timeout, at most
 * `MAX_DOWNLOAD_TIMEOUT_SECONDS`) stop another credential's download only when 14 of them (2 with
 * two places, 12 with one) hold all 16 places. n8n's in-memory binary data mode holds at most 16
 * files while they arrive: 4 with one or two credentials downloading, then 2 more than the
 * credentials downloading. Bound: one count per credential with a download in flight (at most 16
 * entries, each key 64 characters: under 4 KB); the line, one entry per waiting download (its
 * key, its promise and two closures: about 1.2 KB measured), each leaving at its run's waiting
 * budget or the user's stop.
 */
const downloadSlots = new Slots(
	SHARED_DOWNLOAD_PLACES,
	MAX_DOWNLOADS_PER_CREDENTIAL,
	MAX_DOWNLOADS_IN_FLIGHT,
);

type Body = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0] & {
	push(chunk: unknown, encoding?: BufferEncoding): boolean;
	destroy(error?: Error): unknown;
};

interface Response {
	body: Body;
	headers: Record<string, string | undefined>;
	statusCode: number;
}

/**
 * An answer and how to drop it unread: the request is aborted (which closes the connection), then
 * the body destroyed. Destroying the body alone is not enough: n8n 2.x's HTTP client hands a
 * stream that wraps the connection's and, destroyed before its first read, leaves it open.
 */
interface Answer {
	response: Response;
	/** The address that answered (after any redirects). */
	url: URL;
	discard(): void;
}

/** An answer that is not the file (its body destroyed): `classify` reads its status. */
class UnreadAnswer extends Error {
	readonly response: { status: number; headers: Record<string, unknown> };

	constructor(status: number, headers: Record<string, unknown>) {
		super(`HTTP ${status}`);
		this.response = { status, headers };
	}
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

function tooLarge(maxBytes: number, seen: string) {
	return new PolicyStop(
		`The export file is larger than the maximum of ${megabytes(maxBytes)} (${seen})`,
		`Raise the option "${maxFileSizeOption.displayName}" to download it, or download the link (download_url) elsewhere.`,
	);
}

const refused = (message: string) => new PolicyStop(message, DOWNLOAD_RULES);

/** The link as a URL. */
function parseLink(link: string): URL {
	try {
		return new URL(link);
	} catch {
		throw refused('The download link of the export (download_url) is not a valid address');
	}
}

/**
 * Whose share of the download places a download takes: its n8n credential (by id), else (a
 * credential n8n gives no id) its gateway and project. A digest: 64 characters, whatever the id.
 */
function placeKey(ctx: IExecuteFunctions, credentials: ICredentialDataDecryptedObject): string {
	const id = ctx.getNode().credentials?.[CREDENTIAL_TYPE]?.id;
	const owner = id ? `credential\n${id}` : `gateway\n${gatewayScope(credentials)}`;
	return createHash('sha256').update(owner).digest('hex');
}

/**
 * The credential's Base URL (the rules of address.ts compare the link with it), and whose share
 * of the download places the download takes.
 */
async function gatewayOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
): Promise<{ base: URL; scope: string }> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	const baseUrl = gatewayBaseUrl(credentials);
	const problem = baseUrlProblem(baseUrl, localNamesAllowed(credentials));
	if (problem)
		throw new PolicyStop(problem, `Check the ${baseUrlField.displayName} of the credential.`);
	return { base: new URL(baseUrl), scope: placeKey(ctx, credentials) };
}

/** The error of a download that found no free place within its wait. */
const downloadsBusy = (waitMs: number) =>
	new PolicyStop(
		`Export downloads are busy: no download place was free within ${Math.ceil(waitMs / 1000)} s, so the export file was not downloaded`,
		`This n8n downloads at most ${MAX_DOWNLOADS_PER_CREDENTIAL} export files at once per credential (the second while fewer than ${SHARED_DOWNLOAD_PLACES} run in all) and ${MAX_DOWNLOADS_IN_FLIGHT} in all, and other downloads held the places the whole time. Run the workflow again later, or raise the node option "${waitingBudgetOption.displayName}" to wait longer for a place.`,
	);

/**
 * A place among the process's downloads (`downloadSlots`): waited for at most the run's
 * waiting budget; a stop ends the wait at once.
 */
async function downloadPlace(scope: string, policy: RunPolicy): Promise<() => void> {
	const limit = deadline(policy.waitingBudgetMs, policy.signal);
	let failed: unknown;
	try {
		return await downloadSlots.acquire(scope, limit.signal);
	} catch (error) {
		failed = error;
	}
	throw limit.passed() ? downloadsBusy(policy.waitingBudgetMs) : failed;
}

/** One GET, no redirect followed: the file's answer, or where a redirect leads. */
async function fetchOnce(
	ctx: IExecuteFunctions,
	url: URL,
	signal: AbortSignal,
): Promise<Answer | { location: string }> {
	const own = new AbortController();
	const response = (await ctx.helpers.httpRequest({
		method: 'GET',
		url: url.href,
		encoding: 'stream',
		returnFullResponse: true,
		headers: { 'User-Agent': USER_AGENT },
		timeout: RETRY_POLICY.requestTimeoutMs,
		abortSignal: AbortSignal.any([signal, own.signal]),
		disableFollowRedirect: true,
		ignoreHttpStatusErrors: true,
	})) as Response;
	const discard = () => {
		own.abort();
		response.body?.destroy?.();
	};
	const { statusCode, headers } = response;
	if (statusCode >= 200 && statusCode < 300) return { response, url, discard };
	discard();
	const location = headers.location;
	if (statusCode >= 300 && statusCode < 400 && location) return { location };
	throw new UnreadAnswer(statusCode, headers);
}

/** The file's answer, through at most `MAX_DOWNLOAD_REDIRECTS` redirects, each checked. */
async function open(
	ctx: IExecuteFunctions,
	link: URL,
	base: URL,
	policy: RunPolicy,
	signal: AbortSignal,
): Promise<Answer> {
	let url = link;
	for (let redirects = 0; ; redirects++) {
		const answer = await withRetries(true, async () => await fetchOnce(ctx, url, signal), policy);
		if (!('location' in answer)) return answer;
		if (redirects >= MAX_DOWNLOAD_REDIRECTS) {
			throw refused(
				`The download of the export was redirected more than ${MAX_DOWNLOAD_REDIRECTS} times; the next redirect was not followed`,
			);
		}
		let next: URL;
		try {
			next = new URL(answer.location, url);
		} catch {
			throw refused('The download of the export was redirected to an address that is not valid');
		}
		const problem = downloadTargetProblem(next, base);
		if (problem)
			throw refused(
				`The download of the export was redirected, and the redirect was not followed: ${problem}`,
			);
		url = next;
	}
}

/** Drops an answer, also one that arrives after nobody waits for it any more. */
function discardLate(opening: Promise<Answer>) {
	opening.then(
		(answer) => answer.discard(),
		() => undefined,
	);
}

/** Counts the bytes as they arrive, without changing how the stream flows: n8n reads it later. */
function capBytes(body: Body, maxBytes: number): () => PolicyStop | undefined {
	let received = 0;
	let overflow: PolicyStop | undefined;
	const push = body.push.bind(body);
	body.push = (chunk: unknown, encoding?: BufferEncoding) => {
		received += chunk instanceof Buffer || typeof chunk === 'string' ? chunk.length : 0;
		if (received > maxBytes) {
			overflow ??= tooLarge(maxBytes, `more than ${megabytes(maxBytes)} received`);
			body.destroy(overflow);
			return false;
		}
		return push(chunk, encoding);
	};
	return () => overflow;
}

/** The name of the file: its Content-Disposition, else the last step of the path that served it. */
function fileName({ response, url }: Answer, fallback: string): string {
	const disposition = String(response.headers['content-disposition'] ?? '');
	const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
	return named ?? (decodeURIComponent(url.pathname.split('/').pop() ?? '') || fallback);
}

interface DownloadOptions {
	maxBytes?: number;
	/** The whole download, redirects and body included, within this. */
	timeoutMs?: number;
	fallbackName: string;
}

/** The error of a download still running at its deadline. */
const downloadTimedOut = (timeoutMs: number) => () =>
	new PolicyStop(
		`The export file did not finish downloading within ${timeoutMs / 1000} s`,
		`The whole download has a time limit, the option "${downloadTimeoutOption.displayName}"; raise it for a large file or a slow connection.`,
	);

/** Opens and reads the file within the deadline; destroys whatever it does not read. */
async function fetchFile(
	ctx: IExecuteFunctions,
	link: URL,
	base: URL,
	policy: RunPolicy,
	options: DownloadOptions,
): Promise<IBinaryData> {
	const maxBytes = options.maxBytes ?? maxFileSizeOption.default * 1024 * 1024;
	// The node refuses a longer one; kept here too, as it bounds how long a place is held.
	const timeoutMs = Math.min(
		options.timeoutMs ?? downloadTimeoutOption.default * 1000,
		MAX_DOWNLOAD_TIMEOUT_SECONDS * 1000,
	);
	const limit = deadline(timeoutMs, policy.signal);
	let opening: Promise<Answer> | undefined;
	let overflow = (): PolicyStop | undefined => undefined;
	let failed: unknown;
	try {
		// The deadline's signal is every request's: its abort closes the connection, body included.
		return await withinDeadline(
			limit,
			async (signal) => {
				opening = open(ctx, link, base, policy, signal);
				const answer = await opening;
				const { body, headers } = answer.response;
				const declared = Number(headers['content-length']);
				if (Number.isFinite(declared) && declared > maxBytes)
					throw tooLarge(maxBytes, `${megabytes(declared)} announced`);
				overflow = capBytes(body, maxBytes);
				const mimeType = headers['content-type']?.split(';')[0].trim();
				const name = fileName(answer, options.fallbackName);
				return await ctx.helpers.prepareBinaryData(body, name, mimeType);
			},
			downloadTimedOut(timeoutMs),
		);
	} catch (error) {
		failed = error;
	}
	if (opening) discardLate(opening);
	if (limit.signal.aborted) throw failed;
	throw overflow() ?? failed;
}

export async function downloadFile(
	this: IExecuteFunctions,
	url: string,
	itemIndex: number,
	options: DownloadOptions,
): Promise<IBinaryData> {
	const policy = runPolicy(this);
	const context = { node: this.getNode(), endpoint: 'DownloadExport', itemIndex };
	try {
		const link = parseLink(url);
		const { base, scope } = await gatewayOf(this, itemIndex);
		const problem = downloadTargetProblem(link, base);
		if (problem) {
			throw refused(`The download link of the export (download_url) was not followed: ${problem}`);
		}
		// The deadline starts once the download has its slot: waiting in line is not downloading.
		const release = await downloadPlace(scope, policy);
		try {
			return await fetchFile(this, link, base, policy, options);
		} finally {
			release();
		}
	} catch (error) {
		throw apiError(error, context);
	}
}
