/**
 * ListWarehouses: the project's warehouses, optionally of one fulfillment system, at most 500 a
 * page behind an opaque `next_token` (empty on the last page). A token holds its project, its
 * place and its filter: the next call must repeat the same filter (the reference says so), and a
 * token of another project or not issued here is refused. Plus the control knob that adds many
 * warehouses to a project (`addWarehouses`).
 */
import type { ApiResult, EndpointContext } from '../endpoint';
import { invalidArgument } from '../errors';
import { FULFILLMENT_SYSTEMS } from '../seed';
import type { EmulatorState } from '../state';
import type { Warehouse } from '../state/fbpi';

/** The reference: a page "contains at most 500 warehouses". */
export const MAX_WAREHOUSES_PER_PAGE = 500;

export interface ListWarehousesBody {
	next_token?: string;
	filters?: { fulfillment_system_code?: string };
}

interface PageToken {
	project: string;
	offset: number;
	system: string | null;
}

const encodeToken = (token: PageToken) =>
	Buffer.from(JSON.stringify(token), 'utf8').toString('base64url');

function decodeToken(text: string): PageToken | undefined {
	try {
		const token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as PageToken;
		const valid =
			typeof token.project === 'string' &&
			Number.isSafeInteger(token.offset) &&
			token.offset > 0 &&
			(token.system === null || typeof token.system === 'string');
		return valid ? token : undefined;
	} catch {
		return undefined;
	}
}

/** Where the page starts: 0 without a token, else the token's place, checked. */
function offsetOf(body: ListWarehousesBody, projectCode: string, system: string | null): number {
	if (body.next_token === undefined) return 0;
	const token = decodeToken(body.next_token);
	if (!token || token.project !== projectCode) {
		throw invalidArgument('next_token is not a page token of this project');
	}
	if (token.system !== system) {
		throw invalidArgument(
			'filters must be the same as in the request that returned this next_token',
		);
	}
	return token.offset;
}

/** A warehouse as ListWarehouses lists it. */
export interface ListedWarehouse {
	warehouse_code: string;
	display_name: string;
	fulfillment_system_code: string;
	is_active: boolean;
}

/** ListWarehouses' fields of a stored warehouse. */
const listed = (warehouse: Warehouse): ListedWarehouse => ({
	warehouse_code: warehouse.warehouse_code,
	display_name: warehouse.display_name,
	fulfillment_system_code: warehouse.fulfillment_system_code,
	is_active: warehouse.is_active,
});

export function listWarehouses({
	state,
	body,
	projectCode,
}: EndpointContext<ListWarehousesBody>): ApiResult {
	const system = body.filters?.fulfillment_system_code ?? null;
	const offset = offsetOf(body, projectCode, system);
	const all = state.fbpi
		.listWarehouses(projectCode)
		.filter((warehouse) => system === null || warehouse.fulfillment_system_code === system);
	const end = offset + MAX_WAREHOUSES_PER_PAGE;
	const next = end < all.length ? encodeToken({ project: projectCode, offset: end, system }) : '';
	return { body: { next_token: next, warehouses: all.slice(offset, end).map(listed) } };
}

/** `addWarehouses` (control API): what to add. */
export interface AddWarehousesOptions {
	/** How many (1 to 100,000). */
	count: number;
	/** Default the emulator's project. */
	projectCode?: string;
	/** Codes are `<prefix>-<n>` (n from 1, five digits); default `WH-GEN`. */
	prefix?: string;
	/** Default `FBPI`. */
	fulfillmentSystemCode?: string;
	/** Every n-th added warehouse is inactive (n >= 1); default none. */
	inactiveEvery?: number;
}

export const MAX_ADDED_WAREHOUSES = 100_000;

/** Adds `count` generated warehouses to the project; returns them as ListWarehouses lists them. */
export function addWarehouses(
	state: EmulatorState,
	projectCode: string,
	options: AddWarehousesOptions,
): ListedWarehouse[] {
	const { count, prefix = 'WH-GEN', inactiveEvery } = options;
	if (!Number.isInteger(count) || count < 1 || count > MAX_ADDED_WAREHOUSES) {
		throw invalidArgument(`count must be an integer from 1 to ${MAX_ADDED_WAREHOUSES}`);
	}
	if (inactiveEvery !== undefined && (!Number.isInteger(inactiveEvery) || inactiveEvery < 1)) {
		throw invalidArgument('inactiveEvery must be an integer >= 1');
	}
	const taken = new Set(state.fbpi.listWarehouses(projectCode).map((w) => w.warehouse_code));
	const added: Omit<Warehouse, 'project_code'>[] = [];
	for (let n = 1; added.length < count; n++) {
		const code = `${prefix}-${String(n).padStart(5, '0')}`;
		if (taken.has(code)) continue;
		const position = added.length + 1;
		added.push({
			warehouse_code: code,
			display_name: `Generated warehouse ${n}`,
			fulfillment_system_code: options.fulfillmentSystemCode ?? FULFILLMENT_SYSTEMS.fbpi,
			is_active: !(inactiveEvery && position % inactiveEvery === 0),
			country_code: 'ae',
			receives_order_webhooks: false,
		});
	}
	state.fbpi.addWarehouses(projectCode, added);
	return added.map((warehouse) => listed({ ...warehouse, project_code: projectCode }));
}
