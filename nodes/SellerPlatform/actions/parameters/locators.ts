/** Resource locators (nodes/shared/parameters/locator.ts): the value chosen or typed, Warehouse Code's included. */
import type { INodeProperties } from 'n8n-workflow';

import { isInputField, named } from '../../../shared';
import { invalidParameter, type Advice, type ParameterSource } from './source';
import { checkText, fieldAdvice, rawText } from './text';

/**
 * A resource locator's value (chosen from its list, or typed by ID), trimmed; a required one is
 * never blank (`hint` says how to set it).
 */
export function readLocator(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
	hint: Advice,
): string {
	const text = checkText(ctx, itemIndex, rawText(ctx, property, itemIndex), named(property));
	if (text === '') {
		const advice = isInputField(property) ? fieldAdvice(property) : hint;
		throw invalidParameter(ctx, itemIndex, `${named(property)} must not be empty`, advice);
	}
	return text;
}

/** The item's Warehouse Code (nodes/shared/parameters): chosen or typed, trimmed, never blank. */
export function readWarehouseCode(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string {
	const hint = {
		editor: `Choose a warehouse from the list, or set "${property.displayName}" by code (or map it with an expression).`,
		tool: 'Give a warehouse code as Warehouse → Get Many lists it.',
	};
	return readLocator(ctx, property, itemIndex, hint);
}
