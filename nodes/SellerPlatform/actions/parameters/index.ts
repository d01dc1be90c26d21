/**
 * Reading and checking parameters before anything is sent: each rule names the parameter. The
 * readers take the parameter's description (`INodeProperties`) and read its label, name, default
 * and allowed values from it, so an operation never types them a second time.
 *
 * One naming family, by what a function is handed:
 *
 * - `readX(ctx, property, itemIndex)` reads the node parameter `property` of an item
 *   (`readRequiredText`, `readOption`, `readRows`, `readWarehouseCode`, …);
 * - `readXField(ctx, itemIndex, values, property, kind)` reads the field `property` of a
 *   collection's `values` (`readBooleanField`, `readNumberField`, `readTextField`, …);
 * - `checkX(ctx, itemIndex, value, what)` checks a value already read (a list entry, a row's
 *   field), `what` naming it in the message (`checkText`, `checkNumber`, `checkList`, …).
 *
 * "read" for what comes from the node, "check" for a value in hand: a call says where its value
 * comes from. Each file holds the readers of one kind of value; files import each other directly,
 * the operations import this index.
 */
export { invalidParameter, runsAsTool, type Advice, type ParameterSource } from './source';
export {
	checkText,
	readNonBlankText,
	readOptionalText,
	readParameter,
	readPathSegment,
	readRequiredText,
	readText,
} from './text';
export {
	checkBoolean,
	checkOption,
	readBooleanField,
	readOption,
	readOptionalBoolean,
	readOptionField,
} from './choices';
export { checkNumber, readAmounts, readNumberField, readOptionalNumber } from './numbers';
export { readBinaryPropertyField, readCollection, readTextField } from './collections';
export { checkList, readRows, readRowsField, readTextList } from './lists';
export { readJsonObject } from './json';
export { readLocator, readWarehouseCode } from './locators';
export { readCountryCode, readFbnCountry, readTwoLetterCountry } from './countries';
