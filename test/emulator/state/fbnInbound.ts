/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * FBN inbound (ASNs), per project: the ASNs with their items and their life (Created → Sealed →
 * Scheduled, Canceled; a seeded one Receiving), the catalog items eligible for FBN per country,
 * the noon warehouses per country and their delivery slots. Slots are the next `SLOT_DAYS` days
 * after today (UTC), two a day per warehouse, each taken by at most one scheduled ASN.
 */
import { ApiError } from '../errors';

export const ASN_STATUSES = [
	'ASN_STATUS_UNSPECIFIED',
	'ASN_STATUS_CREATED',
	'ASN_STATUS_SEALED',
	'ASN_STATUS_SCHEDULED',
	'ASN_STATUS_RECEIVING',
	'ASN_STATUS_INBOUNDED',
	'ASN_STATUS_CANCELED',
	'ASN_STATUS_EXPIRED',
] as const;
export type AsnStatus = (typeof ASN_STATUSES)[number];
export const STORAGE_TYPES = [
	'STORAGE_TYPE_UNSPECIFIED',
	'STORAGE_TYPE_STANDARD',
	'STORAGE_TYPE_OVERSIZE',
	'STORAGE_TYPE_BULKY',
] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];
export const SLOT_DAYS = 5;
export const DAILY_SLOTS = [
	{ start: '08:00', end: '12:00' },
	{ start: '13:00', end: '17:00' },
];

export interface TimeSlot {
	start: string;
	end: string;
}

export interface AsnItem {
	partner_sku: string;
	qty: number;
	storage_type: StorageType;
}

/** A stored ASN, as `emulator.fbnShipments()` lists it. */
export interface Asn {
	project_code: string;
	asn_nr: string;
	exref_nr: string;
	shipment_type: string;
	status: AsnStatus;
	country_code: string;
	dst_warehouse_code: string | null;
	schedule_date: string | null;
	schedule_slot: TimeSlot | null;
	qty_received: number;
	qty_putaway: number;
	misc: Record<string, unknown>;
	items: AsnItem[];
	created_at: string;
	updated_at: string;
}

export interface FbnCatalogItem {
	partner_sku: string;
	sku: string;
	title: string;
	storage_type: StorageType;
	image_url: string;
	/** Destination countries it is eligible for. */
	countries: string[];
}

export interface FbnWarehouse {
	warehouse_code: string;
	name: string;
	address: string;
	city: string;
	location: { latitude: number; longitude: number };
	country_code: string;
}

export const FBN_WAREHOUSES: readonly FbnWarehouse[] = [
	{
		warehouse_code: 'FBN-DXB-01',
		name: 'noon FBN Dubai South',
		address: 'Logistics District, Plot 12',
		city: 'Dubai',
		location: { latitude: 24.896, longitude: 55.161 },
		country_code: 'AE',
	},
	{
		warehouse_code: 'FBN-AUH-01',
		name: 'noon FBN Abu Dhabi',
		address: 'KEZAD, Block 4',
		city: 'Abu Dhabi',
		location: { latitude: 24.39, longitude: 54.6 },
		country_code: 'AE',
	},
	{
		warehouse_code: 'FBN-RUH-01',
		name: 'noon FBN Riyadh',
		address: 'Al Sulay, Street 20',
		city: 'Riyadh',
		location: { latitude: 24.58, longitude: 46.86 },
		country_code: 'SA',
	},
	{
		warehouse_code: 'FBN-CAI-01',
		name: 'noon FBN Cairo',
		address: '10th of Ramadan, Zone A',
		city: 'Cairo',
		location: { latitude: 30.29, longitude: 31.74 },
		country_code: 'EG',
	},
];

const image = (sku: string) => `https://images.example.invalid/fbn/${sku.toLowerCase()}.jpg`;
const catalogItem = (
	partner_sku: string,
	title: string,
	storage_type: StorageType,
	countries: string[],
): FbnCatalogItem => ({
	partner_sku,
	sku: `N${partner_sku.replace(/[^A-Z0-9]/gi, '').toUpperCase()}`,
	title,
	storage_type,
	image_url: image(partner_sku),
	countries,
});

/** The catalog items every project has, eligible for FBN in the countries listed. */
export const SEEDED_FBN_CATALOG: readonly FbnCatalogItem[] = [
	catalogItem('SKU-MUG-WHT', 'White ceramic mug, 350 ml', 'STORAGE_TYPE_STANDARD', ['AE', 'SA']),
	catalogItem('SKU-MUG-BLK', 'Black ceramic mug, 350 ml', 'STORAGE_TYPE_STANDARD', ['AE', 'SA']),
	catalogItem('SKU-TEE-M', 'Cotton T-shirt, size M', 'STORAGE_TYPE_STANDARD', ['AE', 'SA', 'EG']),
	catalogItem('SKU-LAMP-01', 'Floor lamp, 160 cm', 'STORAGE_TYPE_OVERSIZE', ['AE']),
	catalogItem('SKU-SOFA-3', 'Three-seat sofa', 'STORAGE_TYPE_BULKY', ['AE', 'SA']),
	catalogItem('SKU-KETTLE-1', 'Electric kettle, 1.7 l', 'STORAGE_TYPE_UNSPECIFIED', ['AE', 'SA']),
];

/** The ASN every project has: being received (no change allowed), two SKUs, in the UAE. */
export const SEEDED_ASN = { exref_nr: 'SEED-RECEIVING-1', status: 'ASN_STATUS_RECEIVING' } as const;

export interface AddFbnCatalogItemsOptions {
	count: number;
	/** Countries the items are eligible for (default AE). */
	countries?: string[];
	/** SKUs are `<prefix>00001`, … (default `SKU-GEN-`). */
	prefix?: string;
	projectCode?: string;
}

const failed = (message: string) => new ApiError('FAILED_PRECONDITION', message);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Project {
	asns: Map<string, Asn>;
	catalog: Map<string, FbnCatalogItem>;
}

export class FbnInboundStore {
	private readonly projects = new Map<string, Project>();
	private nextAsn = 1;

	seedProject(projectCode: string, now: number): void {
		const project: Project = {
			asns: new Map(),
			catalog: new Map(SEEDED_FBN_CATALOG.map((item) => [item.partner_sku, structuredClone(item)])),
		};
		this.projects.set(projectCode, project);
		const asn = this.create(
			projectCode,
			SEEDED_ASN.exref_nr,
			'SHIPMENT_TYPE_FBN_GLOBAL',
			'AE',
			now,
		);
		asn.items = [
			{ partner_sku: 'SKU-MUG-WHT', qty: 24, storage_type: 'STORAGE_TYPE_STANDARD' },
			{ partner_sku: 'SKU-TEE-M', qty: 40, storage_type: 'STORAGE_TYPE_STANDARD' },
		];
		asn.status = SEEDED_ASN.status;
		asn.dst_warehouse_code = 'FBN-DXB-01';
		asn.schedule_date = day(now - 86_400_000);
		asn.schedule_slot = { ...DAILY_SLOTS[0] };
		asn.qty_received = 30;
	}

	private project(projectCode: string): Project {
		const project = this.projects.get(projectCode);
		if (!project) throw new Error(`no FBN inbound store for project ${projectCode}`);
		return project;
	}

	create(projectCode: string, exref: string, type: string, country: string, now: number): Asn {
		const at = new Date(now).toISOString();
		const asn: Asn = {
			project_code: projectCode,
			asn_nr: `ASN${String(this.nextAsn++).padStart(9, '0')}`,
			exref_nr: exref,
			shipment_type: type,
			status: 'ASN_STATUS_CREATED',
			country_code: country,
			dst_warehouse_code: null,
			schedule_date: null,
			schedule_slot: null,
			qty_received: 0,
			qty_putaway: 0,
			misc: {},
			items: [],
			created_at: at,
			updated_at: at,
		};
		this.project(projectCode).asns.set(asn.asn_nr, asn);
		return asn;
	}

	/** The ASN made before with this external reference and shipment type. */
	findByReference(projectCode: string, exref: string, type: string): Asn | undefined {
		return [...this.project(projectCode).asns.values()].find(
			(asn) => asn.exref_nr === exref && asn.shipment_type === type,
		);
	}

	/** The ASN, or NOT_FOUND. */
	get(projectCode: string, asnNr: string): Asn {
		const asn = this.project(projectCode).asns.get(asnNr);
		if (!asn) throw new ApiError('NOT_FOUND', `ASN ${JSON.stringify(asnNr)} not found`);
		return asn;
	}

	/** The ASN when it is in one of `statuses`, else FAILED_PRECONDITION naming what was asked. */
	getIn(projectCode: string, asnNr: string, statuses: AsnStatus[], what: string): Asn {
		const asn = this.get(projectCode, asnNr);
		if (!statuses.includes(asn.status)) {
			const allowed = statuses.map((s) => s.replace('ASN_STATUS_', '')).join(', ');
			throw failed(`ASN ${asnNr} is ${asn.status}: ${what} needs it ${allowed}`);
		}
		return asn;
	}

	list(projectCode: string): Asn[] {
		return [...this.project(projectCode).asns.values()];
	}

	/** Stored ASNs (with items and metadata), oldest first; of one project when given. */
	all(projectCode?: string): Asn[] {
		const projects = projectCode === undefined ? [...this.projects.keys()] : [projectCode];
		return projects.flatMap((code) => this.list(code).map((asn) => structuredClone(asn)));
	}

	catalog(projectCode: string): FbnCatalogItem[] {
		return [...this.project(projectCode).catalog.values()];
	}

	/** The catalog item, when it is eligible for the country. */
	eligible(projectCode: string, partnerSku: string, country: string): FbnCatalogItem | undefined {
		const item = this.project(projectCode).catalog.get(partnerSku);
		return item?.countries.includes(country) ? item : undefined;
	}

	addCatalogItems(options: AddFbnCatalogItemsOptions, projectCode: string): FbnCatalogItem[] {
		const catalog = this.project(projectCode).catalog;
		const prefix = options.prefix ?? 'SKU-GEN-';
		const added: FbnCatalogItem[] = [];
		for (let n = 1; n <= options.count; n++) {
			const sku = `${prefix}${String(catalog.size + 1).padStart(5, '0')}`;
			const item = catalogItem(sku, `Generated item ${n}`, 'STORAGE_TYPE_STANDARD', [
				...(options.countries ?? ['AE']),
			]);
			catalog.set(sku, item);
			added.push(structuredClone(item));
		}
		return added;
	}

	/** The slots still free for an ASN of `country`: per warehouse, the next days after today. */
	freeSlots(projectCode: string, country: string, now: number) {
		const taken = new Set(
			this.list(projectCode)
				.filter((asn) => asn.status === 'ASN_STATUS_SCHEDULED')
				.map((asn) => `${asn.dst_warehouse_code} ${asn.schedule_date} ${asn.schedule_slot?.start}`),
		);
		return FBN_WAREHOUSES.filter((wh) => wh.country_code === country).map((warehouse) => {
			const days = Array.from({ length: SLOT_DAYS }, (_, i) => day(now + (i + 1) * 86_400_000))
				.map((date) => ({
					date,
					slots: DAILY_SLOTS.filter(
						(slot) => !taken.has(`${warehouse.warehouse_code} ${date} ${slot.start}`),
					).map((slot) => ({ ...slot })),
				}))
				.filter((entry) => entry.slots.length > 0);
			const { country_code: _country, ...view } = warehouse;
			return { warehouse: structuredClone(view), days };
		});
	}
}
