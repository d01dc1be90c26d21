/**
 * API Credential → Remove: deactivates one key of an API user (Key ID set), or every key of it
 * (Key ID left empty). A Key ID that is set, by an expression too, is never blank: an expression
 * that gives nothing must not turn "remove this key" into "remove every key".
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { named, shown } from '../../../shared';
import { checkText, invalidParameter } from '../parameters';
import { bodyFromFields } from '../shapes/bodyFromFields';
import { readUserCode, userCodeProperty } from './userCode';

const userCode = userCodeProperty(
	'The user_code of the API user (service account) whose keys are deactivated',
);

const keyId: INodeProperties = {
	displayName: 'Key ID',
	name: 'keyId',
	type: 'string',
	default: '',
	description:
		'The key_id of the one key to deactivate. Leave it empty to deactivate EVERY key of the user.',
	hint: "Empty: every key of the user is deactivated at once, this credential's own key too if it belongs to that user",
};

/**
 * The key to remove, or undefined when the field is left empty (every key). Set (a value or an
 * expression), it must give a non-blank key ID.
 */
function readKeyId(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const raw = ctx.getNode().parameters[keyId.name];
	if (raw === undefined || raw === null || raw === '') return undefined;
	const value = ctx.getNodeParameter(keyId.name, itemIndex, '') as unknown;
	const text = checkText(ctx, itemIndex, value, named(keyId));
	if (text === '') {
		throw invalidParameter(
			ctx,
			itemIndex,
			`${named(keyId)} is set but gives ${shown(value)}, no key ID: the item is refused rather than removing every key of the user`,
			`Map a key ID, or clear "${keyId.displayName}" to remove every key of the user on purpose.`,
		);
	}
	return text;
}

export const { description, plan } = bodyFromFields({
	show: { resource: 'apiCredential', operation: 'remove' },
	endpoint: 'RemoveCredentials',
	properties: [userCode, keyId],
	body: {
		user_code: (ctx, itemIndex) => readUserCode(ctx, userCode, itemIndex),
		key_id: readKeyId,
	},
});
