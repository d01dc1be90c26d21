/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Hosts emulators for benchmarks that run in another process (see emulator.ts): the runner
 * (run.ts) hosts them for the benchmark processes it forks, or this file runs as a process of its
 * own (`--same-process` runs). Keeping the emulator out of the benchmark process keeps its CPU
 * work off the event loop that runs n8n and our node, and its memory out of the memory figures,
 * as with a real, remote API.
 *
 * Protocol (IPC, emulatorProtocol.ts): `{ kind: 'emulator', id, method, args }` →
 * `{ kind: 'emulator', id, result }` or `{ kind: 'emulator', id, error }`.
 */
import {
	startEmulator,
	type AddFbpiOrdersOptions,
	type Emulator,
	type EmulatorOptions,
} from '../emulator';
import { isEmulatorMessage, type EmulatorReply, type EmulatorRequest } from './emulatorProtocol';
import { summarise } from './emulatorSummary';

export { isEmulatorMessage, type EmulatorReply, type EmulatorRequest };

export class EmulatorHost {
	private readonly emulators = new Map<number, Emulator>();
	private nextId = 1;

	private need(emulatorId: number): Emulator {
		const emulator = this.emulators.get(emulatorId);
		if (!emulator) throw new Error(`no emulator ${emulatorId}`);
		return emulator;
	}

	private readonly handlers: Record<string, (...args: any[]) => unknown> = {
		start: async (options: EmulatorOptions) => {
			const emulator = await startEmulator(options);
			const emulatorId = this.nextId++;
			this.emulators.set(emulatorId, emulator);
			return { emulatorId, baseUrl: emulator.baseUrl, credential: emulator.credential };
		},
		stats: (emulatorId: number) => this.need(emulatorId).stats(),
		arrivals: (emulatorId: number, operation?: string) =>
			summarise(this.need(emulatorId).requests(), operation),
		clearRequests: (emulatorId: number) => this.need(emulatorId).clearRequests(),
		imports: (emulatorId: number) => this.need(emulatorId).imports(),
		addFbpiOrders: (emulatorId: number, options: AddFbpiOrdersOptions) =>
			this.need(emulatorId)
				.addFbpiOrders(options)
				.map((order) => order.fbpi_order_nr),
		cpuUsage: () => process.cpuUsage(),
		close: async (emulatorId: number) => {
			const emulator = this.emulators.get(emulatorId);
			this.emulators.delete(emulatorId);
			await emulator?.close();
		},
	};

	/** Answers one request; never rejects. */
	async handle(request: EmulatorRequest): Promise<EmulatorReply> {
		try {
			const handler = this.handlers[request.method];
			if (!handler) throw new Error(`unknown method ${request.method}`);
			return {
				kind: 'emulator',
				id: request.id,
				result: (await handler(...(request.args ?? []))) ?? null,
			};
		} catch (error) {
			return { kind: 'emulator', id: request.id, error: String((error as Error)?.stack ?? error) };
		}
	}

	async closeAll(): Promise<void> {
		const open = [...this.emulators.values()];
		this.emulators.clear();
		await Promise.all(open.map(async (emulator) => await emulator.close()));
	}
}

// As a process of its own: serve the parent, and end with it.
if (require.main === module) {
	const host = new EmulatorHost();
	process.on('message', (message: unknown) => {
		if (!isEmulatorMessage(message)) return;
		void host.handle(message as EmulatorRequest).then((reply) => process.send?.(reply));
	});
	process.on('disconnect', () => {
		void host.closeAll().finally(() => process.exit(0));
	});
}
