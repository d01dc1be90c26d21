import { PACKAGE_VERSION, USER_AGENT } from '../../nodes/api/constants';
import { parseErrorBody } from '../../nodes/api/errors';
import { buildUrl, fillPath, joinUrl } from '../../nodes/api/url';
import packageJson from '../../package.json';

describe('URL building', () => {
	it('joins base URL, prefix and path with single slashes', () => {
		expect(joinUrl('https://gw.example/', '/catplat/', '/v1/import/barcode')).toBe(
			'https://gw.example/catplat/v1/import/barcode',
		);
		expect(joinUrl('https://gw.example//', '', '/x')).toBe('https://gw.example/x');
	});

	it('puts the service prefix from the credential before the /v1/ paths only', () => {
		const prefixes = { sandboxOrderPrefix: '/fbpi', importPrefix: 'catplat' };
		expect(buildUrl('https://gw', 'CreateSandboxOrder', {}, prefixes)).toBe(
			'https://gw/fbpi/v1/sandbox-order/create',
		);
		expect(buildUrl('https://gw', 'GetImportStatus', { reference: 'R-1' }, prefixes)).toBe(
			'https://gw/catplat/v1/import/status/R-1',
		);
		expect(buildUrl('https://gw', 'GetPurchaseOrder', { po_nr: 'PO-1' }, prefixes)).toBe(
			'https://gw/fbpo/v1/po/PO-1/get',
		);
		expect(buildUrl('https://gw/', 'CreateBarcodeImport', {}, { importPrefix: '' })).toBe(
			'https://gw/v1/import/barcode',
		);
	});

	it.each([
		['../x', '/fbpo/v1/po/..%2Fx/get'],
		['a/b?c#d', '/fbpo/v1/po/a%2Fb%3Fc%23d/get'],
		['PO 1%', '/fbpo/v1/po/PO%201%25/get'],
	])('encodes the path parameter %j as one segment', (poNr, path) => {
		const url = buildUrl('https://gw', 'GetPurchaseOrder', { po_nr: poNr });
		expect(url).toBe(`https://gw${path}`);
		// The URL parser must not resolve it into another path.
		expect(new URL(url).pathname).toBe(path);
	});

	it.each(['.', '..'])('refuses the dot segment %j as a path parameter', (value) => {
		expect(() => buildUrl('https://gw', 'GetPurchaseOrder', { po_nr: value })).toThrow(
			`Path parameter "po_nr" cannot be "${value}"`,
		);
	});

	it('refuses to build a path with a missing parameter', () => {
		expect(() => fillPath('/po/{po_nr}/get', {})).toThrow('Missing path parameter "po_nr"');
	});

	it('sends a User-Agent naming the package and its version', () => {
		expect(PACKAGE_VERSION).toBe(packageJson.version);
		expect(USER_AGENT).toContain(`n8n-nodes-seller-platform/${packageJson.version}`);
	});
});

describe('error bodies', () => {
	const body = {
		status_id: 5,
		status_code: 'NOT_FOUND',
		message: 'po not found',
		details: [{ a: 1 }],
	};

	it('reads the spec error body from an object, a JSON string or a buffer', () => {
		expect(parseErrorBody(body)).toEqual(body);
		expect(parseErrorBody(JSON.stringify(body))).toEqual(body);
		expect(parseErrorBody(Buffer.from(JSON.stringify(body)))).toEqual(body);
	});

	it('falls back to the raw text for a non-JSON body', () => {
		expect(parseErrorBody('<html>Bad Gateway</html>')).toEqual({
			message: '<html>Bad Gateway</html>',
		});
	});

	it('tolerates missing fields (all four are optional)', () => {
		expect(parseErrorBody({})).toEqual({});
		expect(parseErrorBody({ message: 'x' })).toEqual({ message: 'x' });
		expect(parseErrorBody(null)).toEqual({});
		expect(parseErrorBody({ code: 8, message: 'slow down' })).toEqual({
			status_id: 8,
			message: 'slow down',
		});
	});
});
