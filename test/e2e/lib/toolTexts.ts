/**
 * The tool Description the built node declares for an operation (nodes/SellerPlatform/actions/
 * toolDescription.ts): what n8n gives a model for a Seller Platform tool left as the node fills it.
 */
import { SellerPlatform } from '../../../dist/nodes/SellerPlatform/SellerPlatform.node';

export function toolDescriptionOf(resource: string, operation: string): string {
	const property = new SellerPlatform().description.properties.find(
		(p) =>
			p.name === 'toolDescription' &&
			(p.displayOptions?.show?.resource ?? []).includes(resource) &&
			(p.displayOptions?.show?.operation ?? []).includes(operation),
	);
	if (!property) throw new Error(`No tool description for ${resource}/${operation}`);
	return String(property.default);
}
