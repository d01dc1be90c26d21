import { resource } from '../resource';
import * as getStatus from './getStatus.operation';

export const { option, operations, description } = resource({
	value: 'export',
	name: 'Export',
	operations: {
		getStatus: {
			name: 'Get Status',
			action: 'Get the status of an export',
			description:
				'Get the details, status and download link of an export, optionally waiting for it and downloading the file',
			operation: getStatus,
		},
	},
});
