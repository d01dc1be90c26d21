/** The request log and the counters behind the control API's stats. */
import type { EmulatorStats, RequestLogEntry } from './types';

/** Operation name of the login (its outcome feeds `logins` / `loginFailures`). */
export const LOGIN_OPERATION = 'Login';
const UNMATCHED_OPERATION = '(unmatched)';

const emptyStats = (): EmulatorStats => ({
	logins: 0,
	loginFailures: 0,
	requests: 0,
	resets: 0,
	byOperation: {},
	statuses: {},
});

export class RequestLog {
	private entries: RequestLogEntry[] = [];
	private nextSeq = 1;
	private counters = emptyStats();

	constructor(private readonly limit: number) {}

	/** Records a request on receipt; its status is filled in by `complete`. */
	start(entry: Omit<RequestLogEntry, 'seq' | 'status'>): RequestLogEntry {
		const logged: RequestLogEntry = { seq: this.nextSeq++, ...entry, status: null };
		this.entries.push(logged);
		if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
		const operation = entry.operation ?? UNMATCHED_OPERATION;
		this.counters.requests++;
		this.counters.byOperation[operation] = (this.counters.byOperation[operation] ?? 0) + 1;
		return logged;
	}

	/** Records the answer to a request: an HTTP status, or null when its socket was reset. */
	complete(entry: RequestLogEntry, status: number | null): void {
		entry.status = status;
		if (status === null) this.counters.resets++;
		else this.counters.statuses[status] = (this.counters.statuses[status] ?? 0) + 1;
		if (entry.operation === LOGIN_OPERATION) {
			if (status === 200) this.counters.logins++;
			else this.counters.loginFailures++;
		}
	}

	list(): RequestLogEntry[] {
		return structuredClone(this.entries);
	}

	clear(): void {
		this.entries = [];
	}

	stats(): EmulatorStats {
		return structuredClone(this.counters);
	}
}
