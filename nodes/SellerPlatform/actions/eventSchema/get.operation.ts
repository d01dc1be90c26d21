/**
 * Event Schema → Get: what the events the service delivers carry, per event type
 * (GetEventSchema). No parameters: one request per run, its answer the output of every input item.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../../shared';
import { perItem, type Operation } from '../runner';
import { describe } from '../shapes/declaration';

export const description = describe({
	show: { resource: 'eventSchema', operation: 'get' },
	properties: [],
});

export const plan: Operation['plan'] = async function (this: IExecuteFunctions, itemCount) {
	// The answer is the same for every item: asked once, when the first item is sent.
	let answer: Promise<IDataObject> | undefined;
	const ask = (itemIndex: number) =>
		(answer ??= apiRequest.call(this, 'GetEventSchema', { itemIndex }));
	const perItemPlan = perItem(function (this: IExecuteFunctions, itemIndex) {
		// A copy per item: output items never share their JSON.
		const copy = (json: IDataObject) => JSON.parse(JSON.stringify(json)) as IDataObject;
		return { send: async () => ({ json: copy(await ask(itemIndex)) }) };
	});
	return await perItemPlan.call(this, itemCount);
};
