/**
 * The User Code of API Credential → Remove (required) and → Create (optional, beside Channel
 * Identifier): a resource locator that offers the API user the credential logs in as (Who Am I,
 * the node's `searchUserCodes` list search) or takes any user code typed or mapped by expression.
 */
import type {
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest, locatorProperty } from '../../../shared';
import { readLocator } from '../parameters';

/** The node's list-search method that offers the session's user (SellerPlatform.node.ts). */
export const USER_CODE_SEARCH_METHOD = 'searchUserCodes';

export function userCodeProperty(description: string, optional = false): INodeProperties {
	return locatorProperty({
		displayName: 'User Code',
		name: 'userCode',
		description,
		searchListMethod: USER_CODE_SEARCH_METHOD,
		searchable: false,
		example: 'usr-0a1b2c3d4e5f',
		optional,
	});
}

export function readUserCode(
	ctx: IExecuteFunctions,
	property: INodeProperties,
	itemIndex: number,
): string {
	return readLocator(
		ctx,
		property,
		itemIndex,
		`Choose the user from the list (the one this credential logs in as), or set "${property.displayName}" by code (Session → Who Am I gives it).`,
	);
}

/** The list search: the user this credential logs in as (Who Am I), by username and code. */
export async function searchUserCodes(this: ILoadOptionsFunctions): Promise<INodeListSearchResult> {
	const { user_code: code, username } = await apiRequest.call(this, 'Whoami');
	if (typeof code !== 'string' || code.trim() === '') return { results: [] };
	const name = typeof username === 'string' && username.trim() ? `${username} (${code})` : code;
	return { results: [{ name, value: code }] };
}
