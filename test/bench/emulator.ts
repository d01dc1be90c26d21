/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * One emulator per benchmark, by default in another process than the benchmark's: the runner's
 * (run.ts hosts the emulators of the benchmark processes it forks), or an emulator host process
 * of its own (emulatorHost.ts) when the benchmark runs in the runner's process. `--in-process`
 * (or BENCH_EMULATOR=in-process) runs it in the benchmark process instead, for comparison.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type {
	AddFbpiOrdersOptions,
	CredentialFile,
	EmulatorOptions,
	EmulatorStats,
	ImportStatusRecord,
} from '../emulator';
import { summarise, type Arrival } from './emulatorSummary';
import { isEmulatorMessage, type EmulatorReply, type EmulatorRequest } from './emulatorProtocol';

export type EmulatorPlacement = 'separate-process' | 'in-process';

/** Set by run.ts in the benchmark processes it forks: the runner hosts their emulators. */
export const HOSTED_BY_PARENT_ENV = 'BENCH_EMULATOR_HOSTED_BY_PARENT';

export interface BenchEmulator {
	readonly placement: EmulatorPlacement;
	readonly baseUrl: string;
	readonly credential: CredentialFile;
	stats(): Promise<EmulatorStats>;
	/** Request log entries (of one operation when given), summarised. */
	arrivals(operation?: string): Promise<Arrival[]>;
	clearRequests(): Promise<void>;
	imports(): Promise<Array<ImportStatusRecord & { project_code: string }>>;
	/** Adds FBPI orders (the control API's `addFbpiOrders`); gives their numbers, in order. */
	addFbpiOrders(options: AddFbpiOrdersOptions): Promise<string[]>;
	/** CPU time of the process the emulator runs in (the benchmark process itself when in-process). */
	cpuUsage(): Promise<NodeJS.CpuUsage>;
	close(): Promise<void>;
}

export async function startBenchEmulator(
	options: EmulatorOptions,
	placement: EmulatorPlacement,
): Promise<BenchEmulator> {
	return placement === 'in-process' ? await inProcess(options) : await inSeparateProcess(options);
}

async function inProcess(options: EmulatorOptions): Promise<BenchEmulator> {
	// Loaded here only: a benchmark process whose emulator runs elsewhere never loads it.
	const { startEmulator } = (await import('../emulator')) as typeof import('../emulator');
	const emulator = await startEmulator(options);
	return {
		placement: 'in-process',
		baseUrl: emulator.baseUrl,
		credential: emulator.credential,
		stats: async () => emulator.stats(),
		arrivals: async (operation) => summarise(emulator.requests(), operation),
		clearRequests: async () => emulator.clearRequests(),
		imports: async () => emulator.imports(),
		addFbpiOrders: async (options) =>
			emulator.addFbpiOrders(options).map((order) => order.fbpi_order_nr),
		cpuUsage: async () => process.cpuUsage(),
		close: async () => await emulator.close(),
	};
}

/** Calls to an emulator host over an IPC channel (the parent process, or a forked host). */
class HostClient {
	private nextId = 1;
	private readonly pending = new Map<
		number,
		{ resolve: (value: any) => void; reject: (error: Error) => void }
	>();

	constructor(
		private readonly send: (message: EmulatorRequest) => void,
		channel: NodeJS.EventEmitter,
	) {
		channel.on('message', (message: unknown) => {
			if (!isEmulatorMessage(message)) return;
			const reply = message as EmulatorReply;
			const call = this.pending.get(reply.id);
			if (!call) return;
			this.pending.delete(reply.id);
			if (reply.error !== undefined) call.reject(new Error(`emulator: ${reply.error}`));
			else call.resolve(reply.result);
		});
	}

	failAll(error: Error) {
		for (const call of this.pending.values()) call.reject(error);
		this.pending.clear();
	}

	async call<T>(method: string, ...args: unknown[]): Promise<T> {
		return await new Promise<T>((resolve, reject) => {
			const id = this.nextId++;
			this.pending.set(id, { resolve, reject });
			try {
				this.send({ kind: 'emulator', id, method, args });
			} catch (error) {
				this.pending.delete(id);
				reject(error as Error);
			}
		});
	}
}

let parentClient: HostClient | undefined;

async function inSeparateProcess(options: EmulatorOptions): Promise<BenchEmulator> {
	let client: HostClient;
	let host: ChildProcess | undefined;
	if (process.env[HOSTED_BY_PARENT_ENV] === '1' && process.send) {
		parentClient ??= new HostClient((message) => process.send!(message), process);
		client = parentClient;
	} else {
		host = fork(join(__dirname, 'emulatorHost.ts'), [], {
			execArgv: ['-r', 'ts-node/register/transpile-only'],
			env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', TS_NODE_PREFER_TS_EXTS: 'true' },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		const forked = host;
		client = new HostClient((message) => forked.send(message), forked);
		forked.on('exit', (code) => client.failAll(new Error(`emulator process exited (${code})`)));
	}
	const started = await client.call<{
		emulatorId: number;
		baseUrl: string;
		credential: CredentialFile;
	}>('start', options);
	const id = started.emulatorId;
	return {
		placement: 'separate-process',
		baseUrl: started.baseUrl,
		credential: started.credential,
		stats: async () => await client.call('stats', id),
		arrivals: async (operation) => await client.call('arrivals', id, operation),
		clearRequests: async () => await client.call('clearRequests', id),
		imports: async () => await client.call('imports', id),
		addFbpiOrders: async (options) => await client.call('addFbpiOrders', id, options),
		cpuUsage: async () => await client.call('cpuUsage'),
		close: async () => {
			await client.call('close', id).catch(() => undefined);
			if (host && host.exitCode === null) {
				host.disconnect();
				await Promise.race([
					new Promise((resolve) => host!.once('exit', resolve)),
					new Promise((resolve) => setTimeout(resolve, 2000).unref()),
				]);
				if (host.exitCode === null) host.kill();
			}
		},
	};
}
