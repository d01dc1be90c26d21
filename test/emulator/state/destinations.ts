/**
 * HTTPS event destinations per project (at most 5 each) and the UpdateDestination rules:
 *   1. credentials omitted: unchanged;
 *   2. credentials with values: all replaced;
 *   3. credentials with an empty map: all removed;
 *   4. each event_types item upserts one subscription (true subscribes, creating it if absent;
 *      false unsubscribes, keeping the record); unlisted ones, or an omitted/empty list: unchanged;
 *   5. is_active false keeps the subscriptions (delivery stops).
 * Omitted destination_name, is_active or url leave the field unchanged.
 */
import { randomBytes } from 'node:crypto';

import { ApiError, invalidArgument } from '../errors';
import { MAX_DESTINATIONS_PER_PROJECT, SEEDED_DESTINATION_TABLE } from '../seed';

export interface EventSubscription {
	event_type: string;
	is_active: boolean;
}

/** Full state of a destination (real header values), for tests and deliveries. */
export interface DestinationState {
	project_code: string;
	destination_code: string;
	destination_name: string;
	is_active: boolean;
	url: string;
	/** Header name → value, sent with every delivery. */
	credentials: Record<string, string>;
	event_types: EventSubscription[];
	/** ISO 8601 time of the latest change. */
	updated_at: string;
}

/** A destination as the API reads it: header values masked. */
export interface DestinationView {
	destination_code: string;
	destination_name: string;
	is_active: boolean;
	url: string;
	credentials: Record<string, string>;
	event_types: EventSubscription[];
}

/** A validated UpdateDestination request; undefined fields are left unchanged. */
export interface DestinationUpdate {
	destination_name?: string;
	is_active?: boolean;
	url?: string;
	credentials?: Record<string, string>;
	event_types?: EventSubscription[];
}

export interface AddDestinationOptions {
	/** Default the emulator's project. */
	projectCode?: string;
	/** Default a fresh `DST-<hex>`. */
	destinationCode?: string;
	destinationName?: string;
	/** Default `https://hooks.example.com/<code>`. */
	url?: string;
	/** Default true. */
	isActive?: boolean;
	credentials?: Record<string, string>;
	eventTypes?: EventSubscription[];
}

export const MASKED_VALUE = '****';
export const EVENT_TYPE_PATTERN = /^[A-Z][A-Z0-9_]*::[A-Z][A-Z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why `url` cannot be a destination url, or null: https, or http on loopback (tests). */
export function destinationUrlProblem(url: string): string | null {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return `url ${JSON.stringify(url)} is not a valid absolute URL`;
	}
	if (parsed.protocol === 'https:') return null;
	if (parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname)) return null;
	return `url must be an https:// address (plain http:// only on loopback: 127.0.0.1, localhost, [::1]), got ${JSON.stringify(url)}`;
}

export function eventTypeProblem(eventType: string, path: string): string | null {
	return EVENT_TYPE_PATTERN.test(eventType)
		? null
		: `${path} ${JSON.stringify(eventType)} must have the form NAMESPACE::EVENT_NAME (upper-case letters, digits, _), e.g. FBPI::ORDER_SYNC`;
}

export function headerProblem(name: string, value: unknown, path: string): string | null {
	if (!HEADER_NAME.test(name))
		return `${path}: ${JSON.stringify(name)} is not a valid HTTP header name`;
	if (typeof value !== 'string') return `${path}.${name} must be a string header value`;
	if (/[\r\n\0]/.test(value)) return `${path}.${name} must not contain line breaks`;
	return null;
}

function checked<T>(problem: string | null, value: T): T {
	if (problem !== null) throw invalidArgument(problem);
	return value;
}

const masked = (credentials: Record<string, string>): Record<string, string> =>
	Object.fromEntries(Object.keys(credentials).map((name) => [name, MASKED_VALUE]));

export class DestinationStore {
	private readonly byProject = new Map<string, Map<string, DestinationState>>();

	seedProject(projectCode: string, now: number): void {
		const destinations = new Map<string, DestinationState>();
		for (const seed of SEEDED_DESTINATION_TABLE) {
			destinations.set(seed.destination_code, {
				...structuredClone(seed),
				project_code: projectCode,
				updated_at: new Date(now).toISOString(),
			});
		}
		this.byProject.set(projectCode, destinations);
	}

	private destinationsOf(projectCode: string): Map<string, DestinationState> {
		let destinations = this.byProject.get(projectCode);
		if (!destinations) this.byProject.set(projectCode, (destinations = new Map()));
		return destinations;
	}

	private find(projectCode: string, code: string): DestinationState {
		const destination = this.byProject.get(projectCode)?.get(code);
		if (!destination)
			throw new ApiError(
				'NOT_FOUND',
				`destination_code ${JSON.stringify(code)} not found in project ${projectCode}`,
			);
		return destination;
	}

	/** Applies an UpdateDestination request; returns the full new state. */
	update(
		projectCode: string,
		code: string,
		update: DestinationUpdate,
		now: number,
	): DestinationState {
		const destination = this.find(projectCode, code);
		if (update.destination_name !== undefined)
			destination.destination_name = update.destination_name;
		if (update.is_active !== undefined) destination.is_active = update.is_active;
		if (update.url !== undefined) destination.url = update.url;
		if (update.credentials !== undefined) destination.credentials = { ...update.credentials };
		for (const item of update.event_types ?? []) {
			const existing = destination.event_types.find((s) => s.event_type === item.event_type);
			if (existing) existing.is_active = item.is_active;
			else destination.event_types.push({ event_type: item.event_type, is_active: item.is_active });
		}
		destination.updated_at = new Date(now).toISOString();
		return structuredClone(destination);
	}

	/** A destination as UpdateDestination answers it (credential values masked). */
	static view(destination: DestinationState): DestinationView {
		return {
			destination_code: destination.destination_code,
			destination_name: destination.destination_name,
			is_active: destination.is_active,
			url: destination.url,
			credentials: masked(destination.credentials),
			event_types: destination.event_types.map((s) => ({ ...s })),
		};
	}

	list(projectCode: string): DestinationState[] {
		return [...(this.byProject.get(projectCode)?.values() ?? [])].map((d) => structuredClone(d));
	}

	add(projectCode: string, options: AddDestinationOptions, now: number): DestinationState {
		const destinations = this.destinationsOf(projectCode);
		if (destinations.size >= MAX_DESTINATIONS_PER_PROJECT) {
			throw new ApiError(
				'FAILED_PRECONDITION',
				`project ${projectCode} already has ${destinations.size} destinations: at most ${MAX_DESTINATIONS_PER_PROJECT} per project`,
			);
		}
		const code = options.destinationCode ?? `DST-${randomBytes(4).toString('hex').toUpperCase()}`;
		if (typeof code !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(code)) {
			throw invalidArgument('destinationCode must be 1 to 64 letters, digits, _ or -');
		}
		if (destinations.has(code))
			throw new ApiError(
				'ALREADY_EXISTS',
				`destination ${code} already exists in project ${projectCode}`,
			);
		const url = options.url ?? `https://hooks.example.com/${code}`;
		const credentials = options.credentials ?? {};
		for (const [name, value] of Object.entries(credentials))
			checked(headerProblem(name, value, 'credentials'), null);
		const eventTypes = (options.eventTypes ?? []).map((s, i) => ({
			event_type: checked(
				eventTypeProblem(String(s?.event_type), `eventTypes[${i}].event_type`),
				String(s.event_type),
			),
			is_active: s.is_active !== false,
		}));
		const destination: DestinationState = {
			project_code: projectCode,
			destination_code: code,
			destination_name: options.destinationName ?? code,
			is_active: options.isActive ?? true,
			url: checked(destinationUrlProblem(url), url),
			credentials: { ...credentials },
			event_types: eventTypes,
			updated_at: new Date(now).toISOString(),
		};
		destinations.set(code, destination);
		return structuredClone(destination);
	}

	delete(projectCode: string, code: string): void {
		this.find(projectCode, code);
		this.byProject.get(projectCode)?.delete(code);
	}
}
