import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { concurrencyOption, optionsCollection, readWaitSettings, waitOptions } from '../options';
import { requiredPathParameter } from '../parameters';
import { perItem } from '../runner';
import { fetchImportStatus } from './imports';

const show = { resource: ['import'], operation: ['getStatus'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Reference',
		name: 'reference',
		type: 'string',
		required: true,
		default: '',
		description:
			'The import_reference returned when the import was created, or your own client_reference',
		displayOptions: { show },
	},
	optionsCollection(show, [concurrencyOption, ...waitOptions]),
];

export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	const reference = requiredPathParameter(this, 'reference', 'Reference', itemIndex);
	const wait = readWaitSettings(this, itemIndex);
	return {
		send: async () => ({ json: await fetchImportStatus(this, reference, wait, itemIndex) }),
	};
});
