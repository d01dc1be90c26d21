import { resource } from '../resource';
import * as map from './map.operation';

export const { option, operations, description } = resource({
	value: 'barcode',
	name: 'Barcode',
	operations: {
		map: {
			name: 'Map',
			action: 'Map barcodes to SKUs',
			description:
				'Map a barcode to a SKU of your catalog at once, one per input item, sent in batches (Import → Create Barcode Import does it as a background import)',
			operation: map,
		},
	},
});
