/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * In-process events of the emulator (`emulator.on(...)`). The server turns `sandboxOrderCreated`
 * and `importCompleted` into event deliveries to destinations (see delivery.ts). A listener that
 * throws is reported and never breaks the request that raised the event.
 */
import { EventEmitter } from 'node:events';

import type { ImportCompletedEvent } from './imports';
import type { DestinationState } from './destinations';
import type { SandboxOrder } from './fbpi';

export interface EmulatorEvents {
	/** A CreateSandboxOrder created an order (not raised for an idempotent replay). */
	sandboxOrderCreated: [order: SandboxOrder];
	/** An import with `config.is_notification_required` reached its final status. */
	importCompleted: [event: ImportCompletedEvent];
	/** UpdateDestination changed a destination (full state, real header values). */
	destinationUpdated: [destination: DestinationState];
}

export type EmulatorEventName = keyof EmulatorEvents;
export type EmulatorEventListener<E extends EmulatorEventName> = (
	...args: EmulatorEvents[E]
) => void;

export class EmulatorEventBus {
	private readonly emitter = new EventEmitter();

	on<E extends EmulatorEventName>(event: E, listener: EmulatorEventListener<E>): void {
		this.emitter.on(event, listener as (...args: unknown[]) => void);
	}

	off<E extends EmulatorEventName>(event: E, listener: EmulatorEventListener<E>): void {
		this.emitter.off(event, listener as (...args: unknown[]) => void);
	}

	emit<E extends EmulatorEventName>(event: E, ...args: EmulatorEvents[E]): void {
		for (const listener of this.emitter.listeners(event)) {
			try {
				(listener as (...a: unknown[]) => void)(...structuredClone(args));
			} catch (error) {
				console.error(`[emulator] ${event} listener failed:`, error);
			}
		}
	}
}
