/**
 * errorBody.ts: the service's error body read from whatever form it arrives in.
 */
import { parseErrorBody } from '../../dist/nodes/shared/errors/errorBody';

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
