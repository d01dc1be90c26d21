/** Every endpoint of the API: method, path (with its service prefix) and whether a repeat is safe. */

export type Endpoint =
	| 'ExchangeToken'
	| 'GetExportStatus'
	| 'GetPurchaseOrder'
	| 'GetFbpiOrderCustomerData'
	| 'CreateSandboxOrder'
	| 'CreateBarcodeImport'
	| 'GetImportStatus'
	| 'CreateCredential'
	| 'UpdateDestination';

/** Credential fields that hold the service prefix of the paths the spec writes without one. */
export type PrefixSetting = 'sandboxOrderPrefix' | 'importPrefix';

export interface EndpointSpec {
	method: 'GET' | 'POST';
	/** Path as the spec writes it; `{name}` placeholders are filled URL-encoded. */
	path: string;
	prefix?: PrefixSetting;
	/**
	 * True when sending the request twice cannot do harm (reads, status polls, the idempotent
	 * sandbox order, the destination update): such requests are repeated after a 5xx, a reset
	 * connection or a timeout. Never for operations that create something new on each call.
	 */
	repeatable: boolean;
}

export const ENDPOINTS: Record<Endpoint, EndpointSpec> = {
	ExchangeToken: { method: 'POST', path: '/identity/oauth/v1/token/exchange', repeatable: false },
	GetExportStatus: { method: 'POST', path: '/impex/v1/export/status', repeatable: true },
	GetPurchaseOrder: { method: 'GET', path: '/fbpo/v1/po/{po_nr}/get', repeatable: true },
	GetFbpiOrderCustomerData: {
		method: 'GET',
		path: '/fbpi/v1/fbpi-order/{fbpi_order_nr}/customer-details/get',
		repeatable: true,
	},
	CreateSandboxOrder: {
		method: 'POST',
		path: '/v1/sandbox-order/create',
		prefix: 'sandboxOrderPrefix',
		repeatable: true,
	},
	CreateBarcodeImport: {
		method: 'POST',
		path: '/v1/import/barcode',
		prefix: 'importPrefix',
		repeatable: false,
	},
	GetImportStatus: {
		method: 'GET',
		path: '/v1/import/status/{reference}',
		prefix: 'importPrefix',
		repeatable: true,
	},
	CreateCredential: {
		method: 'POST',
		path: '/identity/apiuser/v1/credential/create',
		repeatable: false,
	},
	UpdateDestination: {
		method: 'POST',
		path: '/event-notifications/v1/destination/https-destination/{destination_code}/update',
		repeatable: true,
	},
};
