/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The emulator's in-memory store: projects, API users, credentials (public keys only), sessions,
 * used JWT ids, and the records the operations read and write. Each resource's store lives in
 * `state/*.ts`; a new project gets its seeded exports, warehouses and destinations.
 */
import { generateKeyPair, randomBytes, randomInt, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

import { ApiError, invalidArgument } from './errors';
import {
	bulkPurchaseOrder,
	channelIdentifierOf,
	DEFAULT_USER_CHANNEL_NAME,
	SEEDED_API_USER,
	SEEDED_PURCHASE_ORDERS,
	type PurchaseOrder,
} from './seed';
import { DestinationStore } from './state/destinations';
import { EmulatorEventBus } from './state/events';
import { ExportStore } from './state/exports';
import { FbnInboundStore } from './state/fbnInbound';
import { FbpiStore } from './state/fbpi';
import { ImportStore } from './state/imports';
import { OAuthStore } from './state/oauth';
import { ShipmentStore } from './state/shipments';
import { StockPriceStore } from './state/stockPrices';
// --- Catalog, offers, event webhooks ---
import { CatalogStore } from './state/catalog';
import { WebhookStore } from './state/webhooks';
import { CrossBorderStore } from './state/crossBorder';
import type { AddCredentialOptions, CredentialFile } from './types';
import { canonicalIp } from './validate';

export { BULK_PO_PATTERN, SEEDED_PO, SEEDED_PO_NUMBERS, SEEDED_PURCHASE_ORDERS } from './seed';
export type { PoDate, PoStatus, PurchaseOrder, PurchaseOrderLine } from './seed';

const generateKeyPairAsync = promisify(generateKeyPair);

export const MAX_WHITELISTED_IPS = 10;
/** Keys one service account may have (documented upstream). */
export const DEFAULT_MAX_KEYS_PER_USER = 5;

/**
 * The project codes drawn at random by every emulator of this process: no two emulators of one
 * test process share a project, as separate gateways' projects would not (the package keys its
 * rate plans by project, whatever the Base URL, and remembers a throttling episode per project).
 */
const drawnProjectCodes = new Set<string>();

export interface StateOptions {
	sessionTtlMs: number;
	importStepMs: number;
	exportStepMs: number;
	sandboxRetentionMs: number;
	maxKeysPerUser: number;
}

export interface Project {
	code: string;
	/** The digits of the code, reused in the API user's channel identifier. */
	digits: string;
}

export interface ApiUser {
	userCode: string;
	channelIdentifier: string;
	projectCode: string;
}

/** A credential as the service keeps it: public key only. */
export interface StoredCredential {
	keyId: string;
	publicKey: KeyObject;
	publicKeyPem: string;
	projectCode: string;
	userCode: string;
	channelIdentifier: string;
	whitelistedIps: string[];
	/** ms since the epoch, or null for no expiry. */
	expiresAt: number | null;
	issuedAt: string;
}

export interface Session {
	/** Value of the first session cookie. */
	id: string;
	/** Value of the second session cookie; both must be presented. */
	gatewayToken: string;
	keyId: string;
	projectCode: string;
	userCode: string;
	expiresAt: number;
}

/** Parses `AddCredentialOptions.expiresAt` into ms since the epoch. */
function parseExpiry(value: AddCredentialOptions['expiresAt']): number | null {
	if (value === undefined || value === null) return null;
	const ms =
		value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
	if (!Number.isFinite(ms))
		throw invalidArgument(`expiresAt is not a valid date: ${String(value)}`);
	return ms;
}

function checkWhitelist(ips: unknown): string[] {
	if (ips === undefined || ips === null) return [];
	if (!Array.isArray(ips) || ips.some((ip) => typeof ip !== 'string' || ip.trim() === '')) {
		throw invalidArgument('whitelistedIps must be a list of addresses');
	}
	if (ips.length > MAX_WHITELISTED_IPS)
		throw invalidArgument(`at most ${MAX_WHITELISTED_IPS} whitelisted IPs`);
	return ips.map((ip: string) => canonicalIp(ip.trim()) ?? ip.trim());
}

export class EmulatorState {
	readonly projects = new Map<string, Project>();
	/** API users by user code. */
	readonly users = new Map<string, ApiUser>();
	/** Credentials by key id. */
	readonly credentials = new Map<string, StoredCredential>();
	/** Sessions by id (first cookie). */
	private readonly sessions = new Map<string, Session>();
	/** Used JWT ids → when they may be forgotten (their iat can no longer pass the window check). */
	private readonly usedJtis = new Map<string, number>();
	private lastJtiSweep = 0;
	private readonly purchaseOrders = new Map(SEEDED_PURCHASE_ORDERS.map((po) => [po.po_nr, po]));
	/** Default API user (the one `addCredential` makes keys for) by project code. */
	private readonly defaultUsers = new Map<string, ApiUser>();

	readonly events = new EmulatorEventBus();
	readonly oauth: OAuthStore;
	readonly exports: ExportStore;
	readonly fbpi: FbpiStore;
	readonly imports: ImportStore;
	readonly destinations = new DestinationStore();
	readonly shipments = new ShipmentStore();
	/** FBN inbound: ASNs, eligible catalog items, slots. */
	readonly fbn = new FbnInboundStore();
	/** Stock and prices of the batch endpoints, per project (and the row faults tests queue). */
	readonly stockPrices = new StockPriceStore();
	// --- Catalog, offers, event webhooks ---
	/** Products with their offers and the barcodes mapped to them, per project. */
	readonly catalog = new CatalogStore();
	/** Event webhooks: destinations (above) with subscription codes and developers. */
	readonly webhooks = new WebhookStore(this.destinations);
	/** Namshi's global and local prices, cross-border products and transfer prices, per project. */
	readonly crossBorder = new CrossBorderStore();

	/** The project provisioned at start. */
	readonly primaryProject: Project;

	constructor(private readonly options: StateOptions) {
		this.exports = new ExportStore(options.exportStepMs);
		this.fbpi = new FbpiStore(options.sandboxRetentionMs);
		this.imports = new ImportStore(options.importStepMs, (event) =>
			this.events.emit('importCompleted', event),
		);
		this.primaryProject = this.createProject();
		this.addUser(this.primaryProject, SEEDED_API_USER.userCode, SEEDED_API_USER.channelName);
		this.oauth = new OAuthStore(this.primaryProject.code);
	}

	/** Stops timers (pending import notifications). */
	close(): void {
		this.imports.close();
	}

	// --- Provisioning -------------------------------------------------------------------------

	/** Creates a project with its default API user and seeded exports, warehouses and destinations. */
	createProject(code?: string): Project {
		let project: Project;
		if (code !== undefined) {
			project = { code, digits: /\d+/.exec(code)?.[0] ?? String(randomInt(100000, 999999)) };
		} else {
			do {
				const digits = String(randomInt(100000, 999999));
				project = { code: `PRJ${digits}`, digits };
			} while (this.projects.has(project.code) || drawnProjectCodes.has(project.code));
			drawnProjectCodes.add(project.code);
		}
		this.projects.set(project.code, project);
		const user = this.addUser(
			project,
			`usr-${randomBytes(6).toString('hex')}`,
			DEFAULT_USER_CHANNEL_NAME,
		);
		this.defaultUsers.set(project.code, user);
		const now = Date.now();
		this.exports.seedProject(project.code, user.userCode, now);
		this.fbpi.seedProject(project.code);
		this.destinations.seedProject(project.code, now);
		this.fbn.seedProject(project.code, now);
		return project;
	}

	private addUser(project: Project, userCode: string, channelName: string): ApiUser {
		const user: ApiUser = {
			userCode,
			channelIdentifier: channelIdentifierOf(channelName, project.digits),
			projectCode: project.code,
		};
		this.users.set(user.userCode, user);
		return user;
	}

	/** The project's default API user (the service account `addCredential` makes keys for). */
	apiUserOf(project: Project): ApiUser {
		return this.defaultUsers.get(project.code) as ApiUser;
	}

	/** The project, created with its seeds when unknown. */
	projectOf(code: string | undefined): Project {
		if (code === undefined) return this.primaryProject;
		if (typeof code !== 'string' || !code)
			throw invalidArgument('projectCode must be a non-empty string');
		return this.projects.get(code) ?? this.createProject(code);
	}

	/** The API user of a project by user code or channel identifier. */
	findUser(
		projectCode: string,
		by: { userCode: string } | { channelIdentifier: string },
	): ApiUser | undefined {
		if ('userCode' in by) {
			const user = this.users.get(by.userCode);
			return user?.projectCode === projectCode ? user : undefined;
		}
		for (const user of this.users.values()) {
			if (user.projectCode === projectCode && user.channelIdentifier === by.channelIdentifier)
				return user;
		}
		return undefined;
	}

	keyCountOf(userCode: string): number {
		let count = 0;
		for (const credential of this.credentials.values())
			if (credential.userCode === userCode) count++;
		return count;
	}

	/**
	 * CreateCredential: a new key for a service account of the project, at most `maxKeysPerUser`
	 * keys per account. The key can log in at once.
	 */
	async createCredentialFor(
		user: ApiUser,
		options: { whitelistedIps: string[]; expiresAt: number | null },
	): Promise<CredentialFile> {
		const max = this.options.maxKeysPerUser;
		if (this.keyCountOf(user.userCode) >= max) {
			throw new ApiError(
				'FAILED_PRECONDITION',
				`service account ${user.userCode} (${user.channelIdentifier}) already has ${max} keys: at most ${max} keys per service account`,
			);
		}
		return (
			await this.provisionCredential(
				{ whitelistedIps: options.whitelistedIps, expiresAt: options.expiresAt },
				user,
			)
		).file;
	}

	/**
	 * Generates an RSA 2048 key pair for an API user (default: the project's default user). Only
	 * the public key is kept; the private key is returned once, in the JSON a seller portal hands out.
	 */
	async provisionCredential(
		options: AddCredentialOptions = {},
		forUser?: ApiUser,
	): Promise<{ stored: StoredCredential; file: CredentialFile }> {
		if (
			options.projectCode !== undefined &&
			(typeof options.projectCode !== 'string' || !options.projectCode)
		) {
			throw invalidArgument('projectCode must be a non-empty string');
		}
		const whitelistedIps = checkWhitelist(options.whitelistedIps);
		const expiresAt = parseExpiry(options.expiresAt);
		const user = forUser ?? this.apiUserOf(this.projectOf(options.projectCode));
		const project = this.projects.get(user.projectCode) as Project;
		const { publicKey, privateKey } = await generateKeyPairAsync('rsa', { modulusLength: 2048 });
		const issuedAt = new Date().toISOString();
		const stored: StoredCredential = {
			keyId: `noon-partners-key-id-${randomBytes(16).toString('hex')}`,
			publicKey,
			publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
			projectCode: project.code,
			userCode: user.userCode,
			channelIdentifier: user.channelIdentifier,
			whitelistedIps,
			expiresAt,
			issuedAt,
		};
		this.credentials.set(stored.keyId, stored);
		const file: CredentialFile = {
			key_id: stored.keyId,
			private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
			project_code: project.code,
			channel_identifier: user.channelIdentifier,
			type: 'apijwt',
			issued_at: issuedAt,
		};
		return { stored, file };
	}

	/**
	 * RemoveCredentials: deactivates the user's key `keyId`, or every key of the user; their
	 * sessions end at once (a deactivated key stops working at once). Returns how many went.
	 */
	removeCredentials(user: ApiUser, keyId?: string): number {
		const keys = [...this.credentials.values()].filter(
			(c) => c.userCode === user.userCode && (keyId === undefined || c.keyId === keyId),
		);
		if (keyId !== undefined && keys.length === 0) {
			throw new ApiError(
				'NOT_FOUND',
				`key_id ${JSON.stringify(keyId)} is not an active key of user ${user.userCode}`,
			);
		}
		const gone = new Set(keys.map((c) => c.keyId));
		for (const id of gone) this.credentials.delete(id);
		for (const [id, session] of this.sessions)
			if (gone.has(session.keyId)) this.sessions.delete(id);
		return gone.size;
	}

	// --- Login replay protection -------------------------------------------------------------

	/** Marks a JWT id as used; false when it was used before (a replay). */
	consumeJti(jti: string, forgetAfter: number, now: number): boolean {
		this.sweepJtis(now);
		if (this.usedJtis.has(jti)) return false;
		this.usedJtis.set(jti, forgetAfter);
		return true;
	}

	private sweepJtis(now: number): void {
		if (now - this.lastJtiSweep < 60_000) return;
		this.lastJtiSweep = now;
		for (const [jti, forgetAfter] of this.usedJtis)
			if (forgetAfter < now) this.usedJtis.delete(jti);
	}

	// --- Sessions -----------------------------------------------------------------------------

	openSession(credential: StoredCredential, projectCode: string, now: number): Session {
		const session: Session = {
			id: randomBytes(24).toString('base64url'),
			gatewayToken: randomBytes(24).toString('base64url'),
			keyId: credential.keyId,
			projectCode,
			userCode: credential.userCode,
			expiresAt: now + this.options.sessionTtlMs,
		};
		this.sessions.set(session.id, session);
		return session;
	}

	/** The live session both cookie values belong to, if any. */
	findSession(id: string, gatewayToken: string, now: number): Session | undefined {
		const session = this.sessions.get(id);
		if (!session || session.gatewayToken !== gatewayToken) return undefined;
		if (session.expiresAt <= now) {
			this.sessions.delete(id);
			return undefined;
		}
		return session;
	}

	/** Invalidates every existing session. */
	expireSessions(): void {
		this.sessions.clear();
	}

	// --- Records ------------------------------------------------------------------------------

	/** A copy of the purchase order, seeded or generated (`PO-BULK-<n>`). */
	findPurchaseOrder(poNr: string): PurchaseOrder | undefined {
		const seeded = this.purchaseOrders.get(poNr);
		return seeded ? structuredClone(seeded) : bulkPurchaseOrder(poNr);
	}
}
