/**
 * The new private key of CreateCredential, wherever the answer holds it: a `private_key` field
 * (or `privateKey`, any case) at any depth, and a PEM private key block in any text, field names
 * included, JSON-escaped too (a text answer the request layer gave as `{ data: "<text>" }`).
 * Whatever the answer's shape, `takePrivateKeys` gives it without the key, and the key itself.
 */
import type { IDataObject } from 'n8n-workflow';

import { PEM_PRIVATE_KEY, redactValue } from '../../../shared';

/** A field that holds the private key: `private_key`, `privateKey`, `PRIVATE-KEY`… */
const isKeyField = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '') === 'privatekey';

/**
 * A PEM block as it was written: JSON-escaped ones (`\n` as two characters) unescaped, with the
 * line break a PEM file ends with.
 */
function asPem(block: string): string {
	const text = unescaped(block);
	return text.endsWith('-----') ? `${text}\n` : text;
}

function unescaped(block: string): string {
	let text = block;
	for (let depth = 0; depth < 3 && !text.includes('\n') && text.includes('\\'); depth++) {
		try {
			text = JSON.parse(`"${text}"`) as string;
		} catch {
			return text.replace(/\\r/g, '\r').replace(/\\n/g, '\n');
		}
	}
	return text;
}

/** The answer without the key (each PEM block `placeholder`), and each key found, once. */
export function takePrivateKeys(
	answer: IDataObject,
	placeholder: string,
): { json: IDataObject; keys: string[] } {
	const keys = new Set<string>();
	const cut = (text: string) =>
		text.replace(PEM_PRIVATE_KEY, (block) => {
			keys.add(asPem(block));
			return placeholder;
		});
	const walk = (node: unknown): unknown => {
		if (typeof node === 'string') return cut(node);
		if (Array.isArray(node)) return node.map(walk);
		if (!node || typeof node !== 'object') return node;
		const clean: IDataObject = {};
		for (const [name, inner] of Object.entries(node as IDataObject)) {
			if (!isKeyField(name)) {
				clean[cut(name)] = walk(inner) as IDataObject;
				continue;
			}
			// The field goes; a text without a PEM block in it is the key all the same.
			const before = keys.size;
			walk(inner);
			if (keys.size === before && typeof inner === 'string' && inner.trim()) keys.add(inner);
		}
		return clean;
	};
	const json = walk(answer) as IDataObject;
	// Any other form of a key found (URL-encoded, Base64, hex, its Base64 body alone) goes too.
	const bodies = [...keys].map((key) =>
		key.replace(/-----(BEGIN|END) [A-Z0-9 ]*-----/g, '').replace(/\s+/g, ''),
	);
	const trimmed = [...keys].map((key) => key.trim());
	const secrets = [...keys, ...trimmed, ...bodies].filter((text) => text.length >= 16);
	return { json: secrets.length ? redactValue(json, secrets, placeholder) : json, keys: [...keys] };
}

const KEY_ID_TEXT = /"key_?id"\s*:\s*"([^"\\]{1,200})"/i;

/** The new key's ID: the first `key_id` (or `keyId`) at any depth, or in a text; else undefined. */
export function findKeyId(answer: unknown): string | undefined {
	const queue: unknown[] = [answer];
	const texts: string[] = [];
	while (queue.length) {
		const node = queue.shift();
		if (typeof node === 'string') texts.push(node);
		if (!node || typeof node !== 'object') continue;
		for (const [name, inner] of Object.entries(node as IDataObject)) {
			const isId = name.toLowerCase().replace(/[^a-z]/g, '') === 'keyid';
			if (isId && (typeof inner === 'string' || typeof inner === 'number')) return String(inner);
			queue.push(inner);
		}
	}
	for (const text of texts) {
		const found = KEY_ID_TEXT.exec(text);
		if (found) return found[1];
	}
	return undefined;
}

/** The key ID for errors and hints: never a private key, whatever the answer held. */
export function describeCreated(json: IDataObject): string {
	const keyId = findKeyId(json);
	return `key ID ${keyId === undefined ? 'unknown' : keyId.replace(PEM_PRIVATE_KEY, '[private key]')}`;
}
