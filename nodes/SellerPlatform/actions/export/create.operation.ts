/**
 * Export → Create: starts an export (CreateExport, never repeated by itself: each call starts a new
 * one), then, with Wait for Completion, polls and downloads it exactly as Export → Get Status does.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { apiRequest } from '../../../shared';
import { readWaitSettings, waitOptions, type WaitSettings } from '../options';
import { readJsonObject } from '../parameters';
import type { TaskOutput } from '../runner';
import { bodyFromFields } from '../shapes/bodyFromFields';
import { pollUntilFinal } from '../wait';
import { exportCategoryProperty, readExportCategory } from './category';
import {
	downloadOptions,
	isExportFinal,
	readDownload,
	withFile,
	type Download,
} from './getStatus.operation';

const paramsProperty: INodeProperties = {
	displayName: 'Parameters',
	name: 'params',
	type: 'json',
	required: true,
	default: '{}',
	description:
		'The parameters of the export as a JSON object; which ones a category takes is listed by Export → Get Categories (and shown beside each category in the list above)',
};

interface Waiting {
	wait: WaitSettings;
	download: Download;
}

function readWaiting(ctx: IExecuteFunctions, itemIndex: number): Waiting {
	return { wait: readWaitSettings(ctx, itemIndex), download: readDownload(ctx, itemIndex) };
}

/** The new export's status once final (or the wait timed out), with its file when asked for. */
async function waitForExport(
	ctx: IExecuteFunctions,
	exportCode: string,
	{ wait, download }: Waiting,
	itemIndex: number,
): Promise<TaskOutput> {
	try {
		const fetch = async () =>
			await apiRequest.call(ctx, 'GetExportStatus', {
				body: { export_code: exportCode },
				itemIndex,
			});
		const status = await pollUntilFinal(fetch, isExportFinal, wait);
		return await withFile(ctx, status, exportCode, download, itemIndex);
	} catch (error) {
		// The export exists: say which one, so nobody starts it a second time.
		throw new NodeOperationError(
			ctx.getNode(),
			`Export ${exportCode} was created, but waiting for it failed: ${(error as Error).message}`,
			{
				itemIndex,
				description: `Do not create it again: look at it with Export → Get Status and the export code ${exportCode}.`,
			},
		);
	}
}

export const { description, plan } = bodyFromFields<Waiting>({
	show: { resource: 'export', operation: 'create' },
	endpoint: 'CreateExport',
	properties: [exportCategoryProperty, paramsProperty],
	options: [...waitOptions, ...downloadOptions],
	body: {
		export_category_code: readExportCategory,
		params: (ctx, itemIndex) => readJsonObject(ctx, paramsProperty, itemIndex),
	},
	after: readWaiting,
	task: () => ({
		creates: {
			describe: (json: IDataObject) => `export ${String(json.export_code)}`,
			advice:
				'Look at these exports with Export → Get Status instead of creating them again, or turn on "Continue On Fail" so the output keeps every export created before a failure.',
		},
	}),
	output: async (ctx, created, { extra }, itemIndex) => {
		const waiting = extra as Waiting;
		const exportCode = created.export_code;
		if (!waiting.wait.enabled || typeof exportCode !== 'string' || exportCode === '') {
			return { json: created };
		}
		return await waitForExport(ctx, exportCode, waiting, itemIndex);
	},
});
