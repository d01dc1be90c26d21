/**
 * The ASN that AsnService_CreateShipment answers, held against the request. The service is
 * idempotent by external reference and shipment type (reference): a reference used before
 * answers the ASN made then, whatever country this request names. So the answer must be the ASN
 * asked for: the same external reference, shipment type and country; otherwise the item fails
 * naming the ASN that holds the reference and what differs (nothing was created).
 *
 * Made now or before: the answer has no such field (its created_at is the service's clock, not
 * comparable with ours). An ASN with items, or past Created, was made before: it is flagged
 * `alreadyExisted`. A draft untouched since it was made cannot be told from a new one and comes
 * without the flag.
 *
 * An ASN answered Canceled or Expired holds the reference, but nothing will be inbounded under
 * it: the item fails (a new reference is needed), never a success.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { TaskOutput } from '../runner';
import { answerError } from '../shapes/answerStatus';
import type { ItemRequest } from '../shapes/request';

const ENDPOINT = 'AsnService_CreateShipment';

/** The fields an answer must share with its request, and how messages name them. */
const COMPARED: Array<[field: string, label: string]> = [
	['country_code', 'country'],
	['shipment_type', 'shipment type'],
	['exref_nr', 'external reference'],
];

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const same = (field: string, a: unknown, b: unknown) =>
	field === 'country_code' ? text(a).toUpperCase() === text(b).toUpperCase() : a === b;

/** How the ASN answered differs from the ASN asked for; empty when it is that ASN. */
function differences(asn: IDataObject, asked: IDataObject): string[] {
	return COMPARED.filter(([field]) => !same(field, asn[field], asked[field])).map(
		([field, label]) => `${label} ${text(asn[field]) || '(none)'} instead of ${text(asked[field])}`,
	);
}

/** Statuses of an ASN under which nothing will be inbounded any more. */
const ENDED = ['ASN_STATUS_CANCELED', 'ASN_STATUS_EXPIRED'];

/** An ASN with items, or past Created, was made before this request. */
const madeBefore = (asn: IDataObject) =>
	asn.status !== 'ASN_STATUS_CREATED' ||
	Number(asn.total_sku_count ?? 0) > 0 ||
	Number(asn.expected_qty ?? 0) > 0;

function takenError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	asn: IDataObject,
	asked: IDataObject,
) {
	const found = differences(asn, asked);
	const holder = `ASN ${text(asn.asn_nr)} for country ${text(asn.country_code)} (${text(asn.shipment_type)})`;
	const message = `The external reference ${text(asked.exref_nr)} is already used by ${holder}: this request is for country ${text(asked.country_code)} (${text(asked.shipment_type)})`;
	const description = `The service answers the ASN already made under an external reference and shipment type instead of making a new one, and that ASN differs from this request: ${found.join('; ')}. Nothing was created. Use a new External Reference Number for this shipment; to see the existing ASN, use FBN Shipment → Get.`;
	return answerError(ctx, ENDPOINT, itemIndex, message, {
		description,
		context: { existingAsn: text(asn.asn_nr), differences: found },
	});
}

function endedError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	asn: IDataObject,
	asked: IDataObject,
) {
	const status = text(asn.status);
	const message = `The external reference ${text(asked.exref_nr)} is already used by ASN ${text(asn.asn_nr)}, which is ${status}: nothing will be inbounded under it`;
	const description = `The service answers the ASN already made under an external reference and shipment type instead of making a new one, and that ASN is ${status}. Nothing was created. Use a new External Reference Number for this shipment; to see the existing ASN, use FBN Shipment → Get.`;
	return answerError(ctx, ENDPOINT, itemIndex, message, {
		description,
		context: { existingAsn: text(asn.asn_nr), status },
	});
}

/** The output of CreateShipment's answer: the ASN asked for, or the item's error. */
export function answeredAsn(
	ctx: IExecuteFunctions,
	answer: IDataObject,
	request: ItemRequest<unknown>,
	itemIndex: number,
): TaskOutput {
	const asn = answer.shipment;
	if (!asn || typeof asn !== 'object' || Array.isArray(asn)) return { json: answer };
	const asked = request.body ?? {};
	if (differences(asn as IDataObject, asked).length)
		throw takenError(ctx, itemIndex, asn as IDataObject, asked);
	if (ENDED.includes(text((asn as IDataObject).status)))
		throw endedError(ctx, itemIndex, asn as IDataObject, asked);
	if (!madeBefore(asn as IDataObject)) return { json: answer };
	const note = `the ASN already existed under this external reference (alreadyExisted: true): it has items or has moved past Created since it was made; nothing was created again`;
	return { json: { ...answer, alreadyExisted: true }, notes: [note] };
}
