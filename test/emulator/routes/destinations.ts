/** Event notification destinations: UpdateDestination (rules in state/destinations.ts). */
import { invalidArgument } from '../errors';
import {
	destinationUrlProblem,
	DestinationStore,
	eventTypeProblem,
	headerProblem,
	type DestinationUpdate,
	type EventSubscription,
} from '../state/destinations';
import {
	at,
	objectAt,
	optionalArray,
	optionalBoolean,
	optionalObject,
	optionalString,
	type JsonObject,
} from '../validate';
import type { RouteModule } from './types';

function check(problem: string | null): void {
	if (problem !== null) throw invalidArgument(problem);
}

/** Validates the whole request before anything changes. */
function parseUpdate(body: JsonObject): DestinationUpdate {
	const update: DestinationUpdate = {};
	const name = optionalString(body, 'destination_name');
	if (name !== undefined) {
		if (name.trim() === '')
			throw invalidArgument(
				'destination_name must not be empty: leave it out to keep the current name',
			);
		update.destination_name = name;
	}
	update.is_active = optionalBoolean(body, 'is_active');
	const url = optionalString(body, 'url');
	if (url !== undefined) {
		if (url === '')
			throw invalidArgument('url must not be empty: leave it out to keep the current url');
		check(destinationUrlProblem(url));
		update.url = url;
	}
	const credentials = optionalObject(body, 'credentials');
	if (credentials !== undefined) {
		const values = optionalObject(credentials, 'values', 'credentials.values');
		if (values === undefined) {
			throw invalidArgument(
				'credentials.values is required when credentials is given: a map of header name to value ({} removes every header)',
			);
		}
		for (const [header, value] of Object.entries(values))
			check(headerProblem(header, value, 'credentials.values'));
		update.credentials = values as Record<string, string>;
	}
	const eventTypes = optionalArray(body, 'event_types');
	if (eventTypes !== undefined) {
		update.event_types = eventTypes.map((raw, i): EventSubscription => {
			const item = objectAt(raw, at('event_types', i));
			const eventType = optionalString(item, 'event_type', at('event_types', i, 'event_type'));
			if (eventType === undefined || eventType === '')
				throw invalidArgument(`${at('event_types', i, 'event_type')} is required`);
			check(eventTypeProblem(eventType, at('event_types', i, 'event_type')));
			const isActive = optionalBoolean(item, 'is_active', at('event_types', i, 'is_active'));
			if (isActive === undefined)
				throw invalidArgument(`${at('event_types', i, 'is_active')} is required (true or false)`);
			return { event_type: eventType, is_active: isActive };
		});
	}
	return update;
}

export const destinationRoutes: RouteModule = () => [
	{
		operation: 'UpdateDestination',
		method: 'POST',
		path: '/event-notifications/v1/destination/https-destination/{destination_code}/update',
		auth: 'session',
		rateLimited: true,
		handler: ({ state, params, body, session, now }) => {
			const update = parseUpdate(body);
			const destination = state.destinations.update(
				session!.projectCode,
				params.destination_code,
				update,
				now,
			);
			state.events.emit('destinationUpdated', destination);
			return { body: DestinationStore.view(destination) };
		},
	},
];
