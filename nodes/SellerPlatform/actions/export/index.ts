import { resource } from '../resource';
import * as create from './create.operation';
import * as getCategories from './getCategories.operation';
import * as getStatus from './getStatus.operation';

export const { option, operations, description } = resource({
	value: 'export',
	name: 'Export',
	default: 'getStatus',
	operations: {
		create: {
			name: 'Create',
			action: 'Create an export',
			description:
				'Start an export of a category with its parameters, optionally waiting for it and downloading the file',
			operation: create,
		},
		getCategories: {
			name: 'Get Categories',
			action: 'Get the export categories',
			description: 'List the export categories and the parameters each one takes',
			operation: getCategories,
		},
		getStatus: {
			name: 'Get Status',
			action: 'Get the status of an export',
			description:
				'Get the details, status and download link of an export, optionally waiting for it and downloading the file',
			operation: getStatus,
		},
	},
});
