/**
 * FBPI shipments (CreateShipment, GetShipment, CancelShipment, AddShipmentCourierAwbs) and the
 * noon logistics AWB numbers handed out by GetNoonLogisticsAWBs, per project. A shipment is known
 * by its warehouse and the seller's integration_shipment_nr, which stays taken once used (a
 * cancelled shipment keeps it). Every AWB number generated is unique across the emulator and kept.
 */
import type { SandboxCountry } from '../seed';

export interface ShipmentAwb {
	courier: string;
	awb_nr: string;
}

export interface ShipmentItem {
	mp_item_nr: string;
	partner_sku: string;
}

export type ShipmentStatus = 'CREATED' | 'CANCELLED';

/** A stored shipment, as `emulator.shipments()` lists it. */
export interface Shipment {
	project_code: string;
	warehouse_code: string;
	integration_shipment_nr: string;
	fbpi_order_nr: string;
	awbs: ShipmentAwb[];
	items: ShipmentItem[];
	/** Not in GetShipment's answer (the reference gives it no status); for tests. */
	status: ShipmentStatus;
	/** ISO 8601. */
	created_at: string;
	cancelled_at?: string;
}

/** A generated noon logistics AWB number, as `emulator.generatedAwbs()` lists it. */
export interface GeneratedAwb {
	project_code: string;
	country_code: SandboxCountry;
	awb_nr: string;
	/** ISO 8601. */
	generated_at: string;
}

const keyOf = (projectCode: string, warehouseCode: string, shipmentNr: string) =>
	JSON.stringify([projectCode, warehouseCode, shipmentNr]);

export class ShipmentStore {
	/** By `[project, warehouse, integration_shipment_nr]`, in creation order. */
	private readonly shipments = new Map<string, Shipment>();
	/** Generated AWB numbers by number (unique across projects). */
	private readonly awbs = new Map<string, GeneratedAwb>();
	private nextAwb = 1;

	find(projectCode: string, warehouseCode: string, shipmentNr: string): Shipment | undefined {
		return this.shipments.get(keyOf(projectCode, warehouseCode, shipmentNr));
	}

	add(shipment: Shipment): void {
		const key = keyOf(
			shipment.project_code,
			shipment.warehouse_code,
			shipment.integration_shipment_nr,
		);
		this.shipments.set(key, shipment);
	}

	/** Stored shipments, oldest first; of one project when given. */
	list(projectCode?: string): Shipment[] {
		return [...this.shipments.values()]
			.filter((shipment) => projectCode === undefined || shipment.project_code === projectCode)
			.map((shipment) => structuredClone(shipment));
	}

	/** `qty` new AWB numbers for `country`, each unique and kept. */
	generate(projectCode: string, country: SandboxCountry, qty: number, now: number): string[] {
		const numbers: string[] = [];
		for (let i = 0; i < qty; i++) {
			const awbNr = `NL${country.toUpperCase()}${String(this.nextAwb++).padStart(10, '0')}`;
			this.awbs.set(awbNr, {
				project_code: projectCode,
				country_code: country,
				awb_nr: awbNr,
				generated_at: new Date(now).toISOString(),
			});
			numbers.push(awbNr);
		}
		return numbers;
	}

	/** Generated AWB numbers, oldest first; of one project when given. */
	generated(projectCode?: string): GeneratedAwb[] {
		return [...this.awbs.values()]
			.filter((awb) => projectCode === undefined || awb.project_code === projectCode)
			.map((awb) => ({ ...awb }));
	}
}
