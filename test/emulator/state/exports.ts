/**
 * Exports per project, with their status over time and the files behind their download links.
 *
 * A seeded export with one state keeps it. One with several states (`PENDING → RUNNING →
 * COMPLETE`) spends `exportStepMs` in each, its clock starting at the first status call in its
 * project (so a test sees the whole progression whenever it runs); exports added in-process
 * start at once.
 */
import { randomBytes } from 'node:crypto';

import { ApiError, invalidArgument } from '../errors';
import { exportCsv, SEEDED_EXPORT_TABLE, type ExportStatus } from '../seed';

/** GetExportStatus response. */
export interface ExportRecord {
	export_code: string;
	export_category_code: string;
	export_status: ExportStatus;
	/** JSON text of the export's parameters. */
	params: string;
	project_code: string;
	created_by: string;
	/** Only once COMPLETE: a link to the file the emulator serves itself (no session needed). */
	download_url?: string;
	created_at: string;
	updated_at: string;
}

export interface AddExportOptions {
	/** Project of the export; default the emulator's project. */
	projectCode?: string;
	/** States in order, each lasting `exportStepMs`; default PENDING, RUNNING, COMPLETE. */
	states?: ExportStatus[];
	exportCategoryCode?: string;
	params?: Record<string, unknown>;
	/**
	 * Size of the file behind the download link, in bytes: generated CSV rows streamed as they are
	 * sent, never held in memory (for measuring a client's memory while downloading).
	 */
	fileSizeBytes?: number;
	/**
	 * The download_url GetExportStatus answers once the export is COMPLETE, exactly as given,
	 * instead of the emulator's own link (for tests of where a client downloads from).
	 */
	downloadUrl?: string;
}

const EXPORT_STATUSES: readonly ExportStatus[] = [
	'PENDING',
	'QUEUE',
	'RUNNING',
	'COMPLETE',
	'ERROR',
	'FAILED',
];

/** Path of the served export files; `{file}` is `<export_code>.csv`. */
export const EXPORT_FILES_PATH = '/__files/exports';

interface StoredExport {
	projectCode: string;
	code: string;
	category: string;
	params: string;
	createdBy: string;
	createdAt: number;
	states: readonly ExportStatus[];
	/** Start of the progression; null until the first status call (seeded progressing exports). */
	startedAt: number | null;
	/** Signature of the download link. */
	downloadToken: string;
	fileSizeBytes?: number;
	/** A download_url given by `add`, answered as is. */
	downloadUrl?: string;
}

export class ExportStore {
	private readonly byProject = new Map<string, Map<string, StoredExport>>();
	private readonly byToken = new Map<string, StoredExport>();
	private nextNumber = 5001;
	/** The states an export made by CreateExport goes through (`setCreatedExportStates`). */
	private createdStates: readonly ExportStatus[] = ['PENDING', 'RUNNING', 'COMPLETE'];

	constructor(private readonly stepMs: number) {}

	/** The states of the exports CreateExport makes from now on, each lasting `exportStepMs`. */
	setCreatedStates(states: readonly ExportStatus[]): void {
		if (
			!Array.isArray(states) ||
			states.length === 0 ||
			states.some((s) => !EXPORT_STATUSES.includes(s))
		) {
			throw invalidArgument(`states must be a non-empty list of ${EXPORT_STATUSES.join(', ')}`);
		}
		this.createdStates = [...states];
	}

	/** CreateExport: a new export of the project, progressing from now; answers its code. */
	create(
		projectCode: string,
		createdBy: string,
		category: string,
		params: Record<string, unknown>,
		now: number,
	): { export_code: string } {
		const stored = this.store({
			projectCode,
			code: `EXP-${this.nextNumber++}`,
			category,
			params: JSON.stringify(params),
			createdBy,
			createdAt: now,
			states: this.createdStates,
			startedAt: now,
			downloadToken: randomBytes(18).toString('base64url'),
		});
		return { export_code: stored.code };
	}

	/** Gives a new project the seeded exports. */
	seedProject(projectCode: string, createdBy: string, now: number): void {
		for (const seed of SEEDED_EXPORT_TABLE) {
			this.store({
				projectCode,
				code: seed.export_code,
				category: seed.export_category_code,
				params: JSON.stringify(seed.params),
				createdBy,
				createdAt: now - seed.ageMinutes * 60_000,
				states: seed.states,
				startedAt: seed.states.length > 1 ? null : now - seed.ageMinutes * 60_000,
				downloadToken: randomBytes(18).toString('base64url'),
			});
		}
	}

	add(
		projectCode: string,
		createdBy: string,
		options: AddExportOptions,
		now: number,
	): ExportRecord {
		const states = options.states ?? ['PENDING', 'RUNNING', 'COMPLETE'];
		const size = options.fileSizeBytes;
		if (size !== undefined && !(Number.isInteger(size) && size >= 0)) {
			throw invalidArgument('fileSizeBytes must be a whole number of bytes >= 0');
		}
		if (options.downloadUrl !== undefined && typeof options.downloadUrl !== 'string') {
			throw invalidArgument('downloadUrl must be a string');
		}
		if (
			!Array.isArray(states) ||
			states.length === 0 ||
			states.some((s) => !EXPORT_STATUSES.includes(s))
		) {
			throw invalidArgument(`states must be a non-empty list of ${EXPORT_STATUSES.join(', ')}`);
		}
		const stored = this.store({
			projectCode,
			code: `EXP-${this.nextNumber++}`,
			category: options.exportCategoryCode ?? 'ORDERS_EXPORT',
			params: JSON.stringify(options.params ?? {}),
			createdBy,
			createdAt: now,
			states: [...states],
			startedAt: now,
			downloadToken: randomBytes(18).toString('base64url'),
			fileSizeBytes: options.fileSizeBytes,
			downloadUrl: options.downloadUrl,
		});
		return this.record(stored, '', now);
	}

	private store(stored: StoredExport): StoredExport {
		let exports = this.byProject.get(stored.projectCode);
		if (!exports) this.byProject.set(stored.projectCode, (exports = new Map()));
		exports.set(stored.code, stored);
		this.byToken.set(stored.downloadToken, stored);
		return stored;
	}

	/** The export as GetExportStatus answers it; starts a seeded progression on its first call. */
	status(projectCode: string, exportCode: string, baseUrl: string, now: number): ExportRecord {
		const stored = this.byProject.get(projectCode)?.get(exportCode);
		if (!stored)
			throw new ApiError(
				'NOT_FOUND',
				`export_code ${JSON.stringify(exportCode)} not found in project ${projectCode}`,
			);
		stored.startedAt ??= now;
		return this.record(stored, baseUrl, now);
	}

	private phase(stored: StoredExport, now: number): { status: ExportStatus; since: number } {
		const last = stored.states.length - 1;
		if (last === 0 || stored.startedAt === null)
			return { status: stored.states[0], since: stored.createdAt };
		const index =
			this.stepMs <= 0 ? last : Math.min(last, Math.floor((now - stored.startedAt) / this.stepMs));
		return {
			status: stored.states[index],
			since: index === 0 ? stored.createdAt : stored.startedAt + index * this.stepMs,
		};
	}

	private record(stored: StoredExport, baseUrl: string, now: number): ExportRecord {
		const { status, since } = this.phase(stored, now);
		// A fixed export finished a few minutes after it was created.
		const updatedAt =
			stored.states.length === 1 && status !== 'PENDING' && status !== 'QUEUE'
				? since + 240_000
				: since;
		return {
			export_code: stored.code,
			export_category_code: stored.category,
			export_status: status,
			params: stored.params,
			project_code: stored.projectCode,
			created_by: stored.createdBy,
			...(status === 'COMPLETE'
				? {
						download_url:
							stored.downloadUrl ??
							`${baseUrl}${EXPORT_FILES_PATH}/${encodeURIComponent(stored.code)}.csv?token=${stored.downloadToken}`,
					}
				: {}),
			created_at: new Date(stored.createdAt).toISOString(),
			updated_at: new Date(Math.min(updatedAt, Math.max(now, since))).toISOString(),
		};
	}

	/** The CSV behind a download link: the token must be the one of that export's link. */
	download(
		fileName: string,
		token: string | null,
		now: number,
	): { fileName: string; csv: string; sizeBytes?: number } {
		const stored = token ? this.byToken.get(token) : undefined;
		if (
			!stored ||
			fileName !== `${stored.code}.csv` ||
			this.phase(stored, now).status !== 'COMPLETE'
		) {
			throw new ApiError(
				'PERMISSION_DENIED',
				'missing or invalid download token: use the download_url exactly as GetExportStatus returned it',
			);
		}
		return { fileName, csv: exportCsv(stored.category), sizeBytes: stored.fileSizeBytes };
	}
}
