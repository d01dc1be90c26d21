/** What the trigger's test files share: the workflow they activate, and closing its activations. */
import type { INodeParameters } from 'n8n-workflow';

import { SEEDED_DESTINATIONS } from '../emulator';
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
