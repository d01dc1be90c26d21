/** Messages between a benchmark process and the process hosting its emulators (IPC). */
export interface EmulatorRequest {
	kind: 'emulator';
	id: number;
	method: string;
	args: unknown[];
}

export interface EmulatorReply {
	kind: 'emulator';
	id: number;
	result?: unknown;
	error?: string;
}

export const isEmulatorMessage = (message: unknown): message is EmulatorRequest | EmulatorReply =>
	typeof message === 'object' &&
	message !== null &&
	(message as { kind?: unknown }).kind === 'emulator';
