/**
 * Map Each Field Below, fast where the expression only names a field: a parameter whose whole
 * value is `{{ $json.name }}` or `{{ $json["a name"] }}` (how n8n's editor maps a column by drag
 * and drop) is the input item's own field, so a batch operation reads it from the item instead of asking n8n to evaluate
 * the expression for each of 100,000 rows (n8n's evaluation builds a data proxy and dates each
 * time: tens of seconds and a heap of garbage). Only text, finite numbers and true/false are read
 * this way, the values n8n's evaluation gives back unchanged; any other value (missing, null, an
 * object, a list), any other expression and anything else go through n8n's `getNodeParameter`, so
 * every value is still read as n8n gives it and checked by the same reader.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ParameterSource } from '../parameters';

/**
 * `={{ $json.name }}`, `={{ $json["a name"] }}` or `={{ $json['a name'] }}` (how n8n's editor
 * writes a dragged column), spaces allowed inside the braces; a quoted name without `\`, braces or
 * its quote (no escapes to read).
 */
const FIELD_EXPRESSION =
	/^=\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(?:"([^"\\{}]*)"|'([^'\\{}]*)')\s*\])\s*\}\}$/;

/**
 * Names n8n's expressions refuse to read (`$json.caller` fails "due to security concerns"), as
 * n8n 2.x lists them: a field whose name holds one of these words is left to n8n, which decides.
 */
const GUARDED_NAME =
	/\b(?:__proto__|prototype|constructor|getPrototypeOf|setPrototypeOf|getOwnPropertyDescriptors?|defineProperty|defineProperties|mainModule|binding|_linkedBinding|_load|prepareStackTrace|__lookupGetter__|__lookupSetter__|__defineGetter__|__defineSetter__|caller|callee|arguments|getBuiltinModule|dlopen|execve|loadEnvFile)\b/;

/** The field a saved value names, when it is nothing but `{{ $json.field }}`. */
function fieldNamed(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const match = FIELD_EXPRESSION.exec(value);
	const name = match ? (match[1] ?? match[2] ?? match[3]) : undefined;
	return name === undefined || GUARDED_NAME.test(name) || /[\r\n]/.test(name) ? undefined : name;
}

/**
 * The field a parameter's saved value names: the value itself, or a resource locator's value in a
 * mode that takes it as it is (no extraction rule, e.g. By Code), read with `extractValue`.
 */
function fieldOf(property: INodeProperties, saved: unknown): string | undefined {
	if (property.type !== 'resourceLocator') return fieldNamed(saved);
	if (typeof saved !== 'object' || saved === null) return undefined;
	const { mode, value } = saved as IDataObject;
	const modeOf = property.modes?.find((m) => m.name === mode);
	return modeOf && !modeOf.extractValue ? fieldNamed(value) : undefined;
}

const isPlain = (value: unknown) =>
	typeof value === 'string' ||
	typeof value === 'boolean' ||
	(typeof value === 'number' && Number.isFinite(value));

/**
 * The node's parameters as a source of values, each `{{ $json.field }}` parameter of `fields`
 * read from the item where its value is plain; everything else asked of n8n.
 */
export function fieldExpressionSource(
	ctx: IExecuteFunctions,
	fields: Record<string, INodeProperties>,
): ParameterSource {
	const saved = ctx.getNode().parameters;
	const direct = new Map<string, { field: string; locator: boolean }>();
	for (const property of Object.values(fields)) {
		const field = fieldOf(property, saved[property.name]);
		if (field) direct.set(property.name, { field, locator: property.type === 'resourceLocator' });
	}
	if (direct.size === 0) return ctx;
	const items = ctx.getInputData();
	const getNodeParameter = ((
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: { extractValue?: boolean },
	) => {
		const reading = direct.get(name);
		if (reading && (!reading.locator || options?.extractValue)) {
			const json = items[itemIndex]?.json;
			const value =
				json && Object.prototype.hasOwnProperty.call(json, reading.field)
					? json[reading.field]
					: undefined;
			if (isPlain(value)) return value;
		}
		return ctx.getNodeParameter(name, itemIndex, fallback, options);
	}) as ParameterSource['getNodeParameter'];
	return { getNode: () => ctx.getNode(), getNodeParameter };
}
