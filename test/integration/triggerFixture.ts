/**
 * What the trigger's test files share: the workflow they activate, closing its activations, and
 * the checks of a dropped re-send.
 */
import type { INodeParameters } from 'n8n-workflow';

import { SEEDED_DESTINATIONS, type Emulator } from '../emulator';
import { chain, type ActiveWorkflow, type TestEnvironment, type TestWorkflow } from '../helpers';
import { CREDENTIAL_ID } from './fixture';

export const TRIGGER = 'Seller Platform Trigger';
export const ORDER_SYNC = 'FBPI::ORDER_SYNC';
export const STATIC_KEY = `node:${TRIGGER}`;

/** Trigger → a pass-through node ("Received"), on the seeded active destination unless told. */
export function triggerWorkflow(
	parameters: INodeParameters = {},
	id = 'trigger-workflow',
): TestWorkflow {
	return {
		id,
		nodes: [
			{
				name: TRIGGER,
				type: 'sellerPlatformTrigger',
				parameters: {
					destinationCode: SEEDED_DESTINATIONS.active,
					events: [ORDER_SYNC],
					...parameters,
				},
				credentials: { sellerPlatformApi: CREDENTIAL_ID },
			},
			{ name: 'Received', type: 'testNoOp' },
		],
		connections: chain(TRIGGER, 'Received'),
	};
}

/** The activations of one test, closed after it (`closeAll` in `afterEach`). */
export class Activations {
	private readonly handles: ActiveWorkflow[] = [];

	async activate(
		env: TestEnvironment,
		workflow: TestWorkflow,
		mode: 'trigger' | 'manual' = 'trigger',
	): Promise<ActiveWorkflow> {
		const handle = await env.activateWorkflow(workflow, { mode });
		this.handles.push(handle);
		return handle;
	}

	async closeAll(): Promise<void> {
		for (const handle of this.handles.splice(0)) await handle.close();
	}
}

/** Once the handle's calls settle: one execution, the second delivery dropped as a duplicate. */
export async function expectSecondDeliveryDropped(handle: ActiveWorkflow): Promise<void> {
	await handle.settled();
	expect(handle.executions).toHaveLength(1);
	expect(handle.requests.map((r) => r.responseBody)).toEqual([
		{ received: true },
		{ received: true, ignored: 'duplicate delivery' },
	]);
}

/** Re-sends `messageId`'s delivery and expects it dropped: still `executions` executions. */
export async function expectResendDropped(
	emulator: Emulator,
	handle: ActiveWorkflow,
	messageId: string,
	executions: number,
): Promise<void> {
	emulator.redeliver(messageId);
	await emulator.waitForDeliveries({ messageId, count: 2 });
	await handle.settled();
	expect(handle.executions).toHaveLength(executions);
	expect(handle.requests.at(-1)?.responseBody).toEqual({
		received: true,
		ignored: 'duplicate delivery',
	});
}
