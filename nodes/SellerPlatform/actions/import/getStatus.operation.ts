import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../api/request';
import { concurrencyOption, optionsCollection, waitOptions } from '../descriptions';
import { requiredPathParameter } from '../parameters';
import { perItem } from '../runner';
import { normaliseStatus, pollUntilFinal, readWaitSettings, type WaitSettings } from '../wait';

const show = { resource: ['import'], operation: ['getStatus'] };

export const FINAL_IMPORT_STATUSES = ['COMPLETED', 'FAILED', 'PARTIAL'];

/** COMPLETED, FAILED and PARTIAL are final (with or without the IMPORT_STATUS_ prefix). */
export function isImportFinal(record: IDataObject): boolean {
	return FINAL_IMPORT_STATUSES.includes(normaliseStatus(record.import_status, 'IMPORT_STATUS_'));
}

/** Reads an import's status, waiting for a final one when asked. */
export async function fetchImportStatus(
	ctx: IExecuteFunctions,
	reference: string,
	wait: WaitSettings,
	itemIndex: number,
): Promise<IDataObject> {
	const fetchStatus = async () =>
		await apiRequest.call(ctx, 'GetImportStatus', { pathParams: { reference }, itemIndex });
	return await pollUntilFinal(fetchStatus, isImportFinal, wait);
}

export const description: INodeProperties[] = [
	{
		displayName: 'Reference',
		name: 'reference',
		type: 'string',
		required: true,
		default: '',
		description: 'The import_reference returned when the import was created, or your own client_reference',
		displayOptions: { show },
	},
	optionsCollection(show, [concurrencyOption, ...waitOptions]),
];

export const execute = perItem(function (this: IExecuteFunctions, itemIndex) {
	const reference = requiredPathParameter(this, 'reference', 'Reference', itemIndex);
	const wait = readWaitSettings(this, itemIndex);
	return { send: async () => ({ json: await fetchImportStatus(this, reference, wait, itemIndex) }) };
});
