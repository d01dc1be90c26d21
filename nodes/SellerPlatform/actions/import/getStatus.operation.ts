import { readByPath } from '../shapes/readByPath';
import { isImportFinal } from './imports';

export const { description, plan } = readByPath({
	show: { resource: 'import', operation: 'getStatus' },
	endpoint: 'GetImportStatus',
	path: { reference: 'reference' },
	waitUntil: isImportFinal,
	properties: [
		{
			displayName: 'Reference',
			name: 'reference',
			type: 'string',
			required: true,
			default: '',
			description:
				'The import_reference returned when the import was created, or your own client_reference',
		},
	],
});
