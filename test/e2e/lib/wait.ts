/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/** Waiting in the end-to-end harness: a plain sleep, and polling until something is there. */

export const sleep = (ms: number) =>
	new Promise<void>((resolveSleep) => setTimeout(resolveSleep, ms));

/** Calls `probe` every `everyMs` until it gives a value (not undefined); fails after `timeoutMs`. */
export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined>,
	timeoutMs = 30_000,
	everyMs = 250,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const value = await probe();
		if (value !== undefined) return value;
		await sleep(everyMs);
	}
	throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
