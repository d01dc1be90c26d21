/**
 * What every shape shares: an operation is declared once, by the resource and operation it is
 * shown for, its parameters' descriptions and its options; the shapes (one file each) build the
 * node description and the `plan` from that one declaration.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { concurrencyOption, optionsCollection, waitOptions } from '../options';

/** The resource and operation an operation's parameters are shown for. */
export interface Shown {
	resource: string;
	operation: string;
}

export interface Declaration {
	show: Shown;
	/** The operation's parameters, in the order the node shows them; `show` is added to each. */
	properties: INodeProperties[];
	/** Options besides concurrency and the reliability limits (which every operation has). */
	options?: INodeProperties[];
	/** For status reads: the wait options are offered, and a final status ends the wait. */
	waitUntil?: (status: IDataObject) => boolean;
}

/** `show` as n8n's displayOptions write it. */
export const displayShow = ({ resource, operation }: Shown) => ({
	resource: [resource],
	operation: [operation],
});

/**
 * The node description of an operation: each parameter shown for its operation (and for its own
 * conditions, when it has some), then its `options` collection.
 */
export function describe(declaration: Declaration): INodeProperties[] {
	const show = displayShow(declaration.show);
	const shown = declaration.properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...show, ...property.displayOptions?.show },
		},
	}));
	const options = [
		concurrencyOption,
		...(declaration.waitUntil ? waitOptions : []),
		...(declaration.options ?? []),
	];
	return [...shown, optionsCollection(show, options)];
}
