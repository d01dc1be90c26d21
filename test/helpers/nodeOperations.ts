/**
 * The Seller Platform node's resources and operations as the editor offers them, read from the
 * node's description (the Resource list, then each resource's Operation list): the one source of
 * the tests' lists of operations, so an operation added to a resource is known to every test that
 * walks the operations (its schema files, the packed package, the README's operations table)
 * without a list kept by hand.
 *
 * The description is the built node's (`dist/`, as n8n loads it; `npm test` builds first). Each
 * function takes the description's properties, so a test can walk another description (the one
 * n8n's package loader returns, or a changed copy).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { SellerPlatform } from '../../dist/nodes/SellerPlatform/SellerPlatform.node';

/** The properties of the built node's description. */
export function nodeProperties(): INodeProperties[] {
	return new SellerPlatform().description.properties;
}

export interface NodeOperation {
	/** The resource's value ("fbpiOrder"), as saved workflows store it. */
	resource: string;
	/** The operation's value ("getMany"). */
	operation: string;
	/** `resource/operation`, as the output schemas are filed ("fbpiOrder/getMany"). */
	name: string;
	/** The resource's label in the Resource list, its note in brackets left out ("FBPI Order"). */
	resourceLabel: string;
	/** The operation's label in the Operation list ("Get Many"). */
	operationLabel: string;
}

const optionsOf = (property: INodeProperties) => (property.options ?? []) as INodePropertyOptions[];

/** The Resource list's options. */
export function nodeResources(properties = nodeProperties()): INodePropertyOptions[] {
	const resource = properties.find((property) => property.name === 'resource');
	if (!resource) throw new Error('The node has no Resource parameter');
	return optionsOf(resource);
}

/** Every operation of every resource, in the order of the Resource and Operation lists. */
export function nodeOperations(properties = nodeProperties()): NodeOperation[] {
	return nodeResources(properties).flatMap((resource) => {
		const value = String(resource.value);
		const lists = properties.filter(
			(property) =>
				property.name === 'operation' &&
				((property.displayOptions?.show?.resource ?? []) as unknown[]).includes(value),
		);
		if (lists.length === 0) throw new Error(`The resource ${value} has no Operation list`);
		return lists.flatMap(optionsOf).map((option) => ({
			resource: value,
			operation: String(option.value),
			name: `${value}/${String(option.value)}`,
			resourceLabel: resource.name.replace(/ \(.*\)$/, ''),
			operationLabel: option.name,
		}));
	});
}

/** Every operation's `resource/operation`. */
export function nodeOperationNames(properties = nodeProperties()): string[] {
	return nodeOperations(properties).map((operation) => operation.name);
}
