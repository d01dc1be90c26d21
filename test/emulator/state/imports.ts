/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Barcode imports per project and their state machine.
 *
 * Phases, each lasting `importStepMs` from creation:
 *   IMPORT_STATUS_PENDING / QUEUED → IMPORT_STATUS_PROCESSING / VALIDATING →
 *   IMPORT_STATUS_PROCESSING / WRITING → final / DONE
 * An import whose every mapping is invalid, or whose file or table cannot be read, ends after
 * VALIDATING: IMPORT_STATUS_FAILED with sub_status VALIDATION_FAILED or SOURCE_UNREADABLE.
 *
 * The outcome is computed once at creation (mappings themselves are not kept), and the status is
 * derived from the clock on every read, so thousands of imports cost no timers; only imports that
 * asked for a completion notification get one, to raise `importCompleted` on time.
 */
import { randomBytes } from 'node:crypto';

import { ApiError } from '../errors';

export type ImportStatus =
	| 'IMPORT_STATUS_UNSPECIFIED'
	| 'IMPORT_STATUS_PENDING'
	| 'IMPORT_STATUS_PROCESSING'
	| 'IMPORT_STATUS_COMPLETED'
	| 'IMPORT_STATUS_FAILED'
	| 'IMPORT_STATUS_PARTIAL';

export type ImportSubStatus =
	'QUEUED' | 'VALIDATING' | 'WRITING' | 'DONE' | 'VALIDATION_FAILED' | 'SOURCE_UNREADABLE';

export interface ImportConfig {
	is_notification_required: boolean;
	force_sync: boolean;
}

export interface ImportFailure {
	partner_sku: string;
	barcode: string;
	reason: string;
}

export interface ImportReport {
	total_count: number;
	success_count: number;
	failure_count: number;
	duration_ms: number;
	/** The first MAX_REPORTED_FAILURES failures. */
	failures: ImportFailure[];
}

/** GetImportStatus response. */
export interface ImportStatusRecord {
	import_type: 'barcode';
	import_reference: string;
	client_reference: string;
	created_by: string;
	config: ImportConfig;
	/** '' when the import's source is not a file. */
	file_url: string;
	/** '' when the import's source is not a table. */
	bq_table: string;
	report: ImportReport;
	import_status: ImportStatus;
	sub_status: ImportSubStatus;
	created_at: string;
	updated_at: string;
	/** '' until the import reaches its final status. */
	completed_at: string;
}

export interface ImportCompletedEvent {
	project_code: string;
	import: ImportStatusRecord;
}

export interface BarcodeMapping {
	partner_sku: string;
	barcode: string;
}

/** A validated CreateBarcodeImport request with exactly one source. */
export interface BarcodeImportRequest {
	client_reference: string;
	config: ImportConfig;
	source:
		{ kind: 'items'; data: BarcodeMapping[] } | { kind: 'file_url' | 'bq_table'; value: string };
}

export const MAX_REPORTED_FAILURES = 100;
const VALID_BARCODE = /^\d{8,14}$/;

interface Outcome {
	status: 'IMPORT_STATUS_COMPLETED' | 'IMPORT_STATUS_PARTIAL' | 'IMPORT_STATUS_FAILED';
	subStatus: ImportSubStatus;
	total: number;
	failureCount: number;
	failures: ImportFailure[];
	/** Ends after VALIDATING instead of going through WRITING. */
	endsAtValidation: boolean;
}

interface StoredImport {
	projectCode: string;
	importReference: string;
	clientReference: string;
	createdBy: string;
	config: ImportConfig;
	fileUrl: string;
	bqTable: string;
	/** Known at creation for inline items; from PROCESSING on for files and tables. */
	totalKnownEarly: boolean;
	createdAt: number;
	stepMs: number;
	outcome: Outcome;
}

/** Why a mapping is refused, or null when it is valid. */
export function mappingFailure(mapping: BarcodeMapping): string | null {
	if (!VALID_BARCODE.test(mapping.barcode)) return 'barcode must be 8 to 14 digits';
	if (mapping.partner_sku.startsWith('UNKNOWN'))
		return `partner_sku ${JSON.stringify(mapping.partner_sku)} does not exist in the catalog`;
	return null;
}

function finalStatus(total: number, failureCount: number): Outcome['status'] {
	if (failureCount === 0) return 'IMPORT_STATUS_COMPLETED';
	return failureCount === total ? 'IMPORT_STATUS_FAILED' : 'IMPORT_STATUS_PARTIAL';
}

function itemsOutcome(data: BarcodeMapping[]): Outcome {
	const failures: ImportFailure[] = [];
	let failureCount = 0;
	for (const mapping of data) {
		const reason = mappingFailure(mapping);
		if (reason === null) continue;
		failureCount++;
		if (failures.length < MAX_REPORTED_FAILURES)
			failures.push({ partner_sku: mapping.partner_sku, barcode: mapping.barcode, reason });
	}
	const status = finalStatus(data.length, failureCount);
	const failed = status === 'IMPORT_STATUS_FAILED';
	return {
		status,
		subStatus: failed ? 'VALIDATION_FAILED' : 'DONE',
		total: data.length,
		failureCount,
		failures,
		endsAtValidation: failed,
	};
}

function hashOf(text: string): number {
	let hash = 2166136261;
	for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
	return hash;
}

/**
 * Files and tables are not read: a source whose address contains `fail` cannot be read (FAILED),
 * one containing `partial` has three invalid rows (PARTIAL), any other is fully valid.
 */
function sourceOutcome(kind: 'file_url' | 'bq_table', value: string): Outcome {
	const lower = value.toLowerCase();
	if (lower.includes('fail')) {
		const what = kind === 'file_url' ? 'file' : 'table';
		return {
			status: 'IMPORT_STATUS_FAILED',
			subStatus: 'SOURCE_UNREADABLE',
			total: 0,
			failureCount: 0,
			failures: [
				{
					partner_sku: '',
					barcode: '',
					reason: `${kind} ${JSON.stringify(value)}: the ${what} could not be read`,
				},
			],
			endsAtValidation: true,
		};
	}
	const total = 20 + (hashOf(value) % 181);
	const failures: ImportFailure[] = lower.includes('partial')
		? [
				{ partner_sku: 'SKU-ROW-3', barcode: '12AB', reason: 'barcode must be 8 to 14 digits' },
				{
					partner_sku: 'UNKNOWN-ROW-7',
					barcode: '6291041500299',
					reason: 'partner_sku "UNKNOWN-ROW-7" does not exist in the catalog',
				},
				{ partner_sku: 'SKU-ROW-11', barcode: '', reason: 'barcode must be 8 to 14 digits' },
			]
		: [];
	return {
		status: finalStatus(total, failures.length),
		subStatus: 'DONE',
		total,
		failureCount: failures.length,
		failures,
		endsAtValidation: false,
	};
}

export class ImportStore {
	private readonly byReference = new Map<string, StoredImport>();
	/** `<project> <client_reference>` → import. */
	private readonly byClientReference = new Map<string, StoredImport>();
	private readonly timers = new Set<NodeJS.Timeout>();

	constructor(
		private readonly stepMs: number,
		private readonly onCompleted: (event: ImportCompletedEvent) => void,
	) {}

	create(
		projectCode: string,
		createdBy: string,
		request: BarcodeImportRequest,
		now: number,
	): { import_reference: string; client_reference: string } {
		const clientKey = `${projectCode} ${request.client_reference}`;
		const existing = this.byClientReference.get(clientKey);
		if (existing) {
			throw new ApiError(
				'ALREADY_EXISTS',
				`client_reference ${JSON.stringify(request.client_reference)} is already used by import ${existing.importReference}; client_reference must be unique`,
			);
		}
		let importReference: string;
		do importReference = `IMP-${randomBytes(8).toString('hex').toUpperCase()}`;
		while (this.byReference.has(importReference));

		const { source } = request;
		const stored: StoredImport = {
			projectCode,
			importReference,
			clientReference: request.client_reference,
			createdBy,
			config: { ...request.config },
			fileUrl: source.kind === 'file_url' ? source.value : '',
			bqTable: source.kind === 'bq_table' ? source.value : '',
			totalKnownEarly: source.kind === 'items',
			createdAt: now,
			stepMs: this.stepMs,
			outcome:
				source.kind === 'items'
					? itemsOutcome(source.data)
					: sourceOutcome(source.kind, source.value),
		};
		this.byReference.set(importReference, stored);
		this.byClientReference.set(clientKey, stored);
		if (stored.config.is_notification_required) this.scheduleNotification(stored, now);
		return { import_reference: importReference, client_reference: request.client_reference };
	}

	/** The import by import_reference or client_reference, within the project. */
	status(projectCode: string, reference: string, now: number): ImportStatusRecord {
		let stored = this.byReference.get(reference);
		if (stored?.projectCode !== projectCode)
			stored = this.byClientReference.get(`${projectCode} ${reference}`);
		if (!stored) {
			throw new ApiError(
				'NOT_FOUND',
				`no import with import_reference or client_reference ${JSON.stringify(reference)} in project ${projectCode}`,
			);
		}
		return this.record(stored, now);
	}

	/** Every import of a project (or all), newest last. */
	list(
		projectCode: string | undefined,
		now: number,
	): Array<ImportStatusRecord & { project_code: string }> {
		const records: Array<ImportStatusRecord & { project_code: string }> = [];
		for (const stored of this.byReference.values()) {
			if (projectCode === undefined || stored.projectCode === projectCode) {
				records.push({ ...this.record(stored, now), project_code: stored.projectCode });
			}
		}
		return records;
	}

	close(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}

	private finalOffset(stored: StoredImport): number {
		return stored.stepMs * (stored.outcome.endsAtValidation ? 2 : 3);
	}

	private scheduleNotification(stored: StoredImport, now: number): void {
		const finalAt = stored.createdAt + this.finalOffset(stored);
		const timer = setTimeout(
			() => {
				this.timers.delete(timer);
				this.onCompleted({
					project_code: stored.projectCode,
					import: this.record(stored, Math.max(Date.now(), finalAt)),
				});
			},
			Math.max(0, finalAt - now),
		);
		timer.unref();
		this.timers.add(timer);
	}

	private record(stored: StoredImport, now: number): ImportStatusRecord {
		const { outcome, stepMs, createdAt } = stored;
		const elapsed = now - createdAt;
		const finalOffset = this.finalOffset(stored);
		const iso = (ms: number) => new Date(ms).toISOString();
		const base = {
			import_type: 'barcode' as const,
			import_reference: stored.importReference,
			client_reference: stored.clientReference,
			created_by: stored.createdBy,
			config: { ...stored.config },
			file_url: stored.fileUrl,
			bq_table: stored.bqTable,
			created_at: iso(createdAt),
		};
		if (elapsed >= finalOffset) {
			const completedAt = createdAt + finalOffset;
			return {
				...base,
				report: {
					total_count: outcome.total,
					success_count: outcome.total - outcome.failureCount,
					failure_count: outcome.failureCount,
					duration_ms: finalOffset,
					failures: outcome.failures.map((failure) => ({ ...failure })),
				},
				import_status: outcome.status,
				sub_status: outcome.subStatus,
				updated_at: iso(completedAt),
				completed_at: iso(completedAt),
			};
		}
		const step = Math.min(2, Math.floor(elapsed / stepMs));
		const [importStatus, subStatus]: [ImportStatus, ImportSubStatus] =
			step === 0
				? ['IMPORT_STATUS_PENDING', 'QUEUED']
				: step === 1
					? ['IMPORT_STATUS_PROCESSING', 'VALIDATING']
					: ['IMPORT_STATUS_PROCESSING', 'WRITING'];
		return {
			...base,
			report: {
				total_count: stored.totalKnownEarly || step > 0 ? outcome.total : 0,
				success_count: 0,
				failure_count: 0,
				duration_ms: Math.max(0, elapsed),
				failures: [],
			},
			import_status: importStatus,
			sub_status: subStatus,
			updated_at: iso(createdAt + step * stepMs),
			completed_at: '',
		};
	}
}
