/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Runs the emulator until SIGINT/SIGTERM:
 *   ts-node --transpile-only test/emulator/cli.ts [--port 8787] [--host 127.0.0.1] [--latency 0]
 *     [--import-step-ms 200] [--export-step-ms 200] [--credential-file .tmp/emulator-credential.json]
 *     [--delivery-retries 3] [--delivery-backoff-ms 200] [--delivery-timeout-ms 5000] [--external-deliveries]
 *     [--rate-model sliding|strict|sliding-10s|fixed-10s|fixed-60s] [--no-retry-after]
 * The port can also come from EMULATOR_PORT.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import {
	DEFAULT_RATE_PLAN,
	describeRatePlan,
	RATE_MODELS,
	SEEDED_API_USER,
	SEEDED_DESTINATIONS,
	SEEDED_EXPORTS,
	SEEDED_FBPI_ORDERS,
	SEEDED_OAUTH_TOKENS,
	SEEDED_WAREHOUSES,
	startEmulator,
	type RateModel,
	type RatePlan,
} from './index';

const USAGE = `Usage: cli.ts [--port N] [--host ADDRESS] [--latency MS] [--latency-jitter MS] [--import-step-ms MS] [--export-step-ms MS]
              [--credential-file PATH] [--delivery-retries N] [--delivery-backoff-ms MS]
              [--delivery-timeout-ms MS] [--external-deliveries]
              [--rate-model sliding|strict|sliding-10s|fixed-10s|fixed-60s] [--no-retry-after]
              [--event-notifications-prefix PREFIX]
  --port                 port to listen on (default: $EMULATOR_PORT or 8787; 0 = any free port)
  --host                 address to listen on (default 127.0.0.1)
  --latency              delay added to every API response, in ms (default 0)
  --latency-jitter       each response's delay varies uniformly within latency ± this (default 0)
  --import-step-ms       duration of each import phase before the final status (default 200)
  --export-step-ms       time a progressing export spends in each state (default 200)
  --credential-file      where to write the provisioned credential (default .tmp/emulator-credential.json)
  --delivery-retries     retries of a failed event delivery (default 3)
  --delivery-backoff-ms  wait before the first retry, doubling for each further one (default 200)
  --delivery-timeout-ms  an attempt without a complete answer after this long fails (default 5000)
  --external-deliveries  also deliver events to destination urls outside loopback (default: only
                         127.0.0.1, localhost, [::1]; others are recorded as skipped)
  --rate-model           how the rate plan (1500 requests per 60 s per project and operation;
                         ListWarehouses 30 per 60 s and 15 per 30 s) is counted: sliding (default)
                         in any 60 s; strict also at most 1/6 of it in each fixed 10 s; sliding-10s
                         only 1/6 of it in any 10 s; fixed-10s only 1/6 of it in each fixed 10 s;
                         fixed-60s only the plan in each fixed 60 s
  --no-retry-after       answer 429 without a Retry-After header (the client backs off)
  --event-notifications-prefix
                         prefix of the event webhook paths (default /event-notifications; '' serves
                         the reference file's bare /v1/create-webhook)`;

function numberFlag(name: string, value: string | undefined, fallback: number): number {
	if (value === undefined || value === '') return fallback;
	const number = Number(value);
	if (!Number.isInteger(number) || number < 0) {
		console.error(
			`--${name} must be a whole number >= 0, got ${JSON.stringify(value)}\n\n${USAGE}`,
		);
		process.exit(2);
	}
	return number;
}

function rateModelFlag(value: string | undefined): RateModel | undefined {
	if (value === undefined) return undefined;
	if (!(RATE_MODELS as readonly string[]).includes(value)) {
		console.error(
			`--rate-model must be one of ${RATE_MODELS.join(', ')}, got ${JSON.stringify(value)}\n\n${USAGE}`,
		);
		process.exit(2);
	}
	return value as RateModel;
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string' },
			host: { type: 'string' },
			latency: { type: 'string' },
			'latency-jitter': { type: 'string' },
			'import-step-ms': { type: 'string' },
			'export-step-ms': { type: 'string' },
			'credential-file': { type: 'string' },
			'delivery-retries': { type: 'string' },
			'delivery-backoff-ms': { type: 'string' },
			'delivery-timeout-ms': { type: 'string' },
			'external-deliveries': { type: 'boolean' },
			'rate-model': { type: 'string' },
			'no-retry-after': { type: 'boolean' },
			'event-notifications-prefix': { type: 'string' },
			help: { type: 'boolean', short: 'h' },
		},
	});
	if (values.help) {
		console.log(USAGE);
		return;
	}
	const rateModel = rateModelFlag(values['rate-model']);
	const ratePlan: RatePlan = {
		...DEFAULT_RATE_PLAN,
		...(rateModel ? { model: rateModel } : {}),
		...(values['no-retry-after'] ? { retryAfter: false } : {}),
	};
	const credentialFile = resolve(values['credential-file'] ?? '.tmp/emulator-credential.json');
	const emulator = await startEmulator({
		host: values.host,
		port: numberFlag('port', values.port ?? process.env.EMULATOR_PORT, 8787),
		latencyMs: numberFlag('latency', values.latency, 0),
		latencyJitterMs: numberFlag('latency-jitter', values['latency-jitter'], 0),
		importStepMs: numberFlag('import-step-ms', values['import-step-ms'], 200),
		exportStepMs: numberFlag('export-step-ms', values['export-step-ms'], 200),
		credentialFile,
		deliveryRetries: numberFlag('delivery-retries', values['delivery-retries'], 3),
		deliveryBackoffMs: numberFlag('delivery-backoff-ms', values['delivery-backoff-ms'], 200),
		deliveryTimeoutMs: numberFlag('delivery-timeout-ms', values['delivery-timeout-ms'], 5000),
		externalDeliveries: values['external-deliveries'] ?? false,
		ratePlan,
		prefixes:
			values['event-notifications-prefix'] === undefined
				? undefined
				: { eventNotifications: values['event-notifications-prefix'] },
	});
	const { credential } = emulator;

	console.log(`Seller Platform API emulator listening on ${emulator.baseUrl}

  Base URL (credential "baseUrl"): ${emulator.baseUrl}
  Control API:                     ${emulator.controlUrl}/  (requests, stats, faults, rate-plan, latency, json-body, sessions/expire,
                                   destinations, exports, imports, sandbox-orders, warehouses, api-users,
                                   fbpi-orders, fbpi-orders/quirks, fbpi-orders/tokens/expire,
                                   events, events/{messageId}/redeliver, deliveries, deliveries/wait)
  Event deliveries:                ${values['external-deliveries'] ? 'to every destination url' : 'to loopback destination urls only (others are recorded as skipped)'}
  Rate plan:                       ${describeRatePlan(ratePlan)}, per project and operation (ListWarehouses: its own 30 per 60 s, 15 per 30 s)
  Credential file:                 ${credentialFile}

  Key id (credential "keyId"):             ${credential.key_id}
  Project code (credential "projectCode"): ${credential.project_code}
  Channel identifier:                      ${credential.channel_identifier}
  Private key (credential "privateKey"; a throw-away local key, new at every start):

${credential.private_key}
Seeded data:
  Purchase orders:   PO-1001 .. PO-1005, and any PO-BULK-<digits>
  FBPI orders:       ${Object.values(SEEDED_FBPI_ORDERS).join(', ')}, and any FBPI-BULK-<digits>
  Exports:           ${Object.entries(SEEDED_EXPORTS)
		.map(([role, code]) => `${code} (${role})`)
		.join(', ')}
  Warehouses:        ${Object.entries(SEEDED_WAREHOUSES)
		.map(([role, code]) => `${code} (${role})`)
		.join(', ')}
  Destinations:      ${Object.entries(SEEDED_DESTINATIONS)
		.map(([role, code]) => `${code} (${role})`)
		.join(', ')}
  Second API user:   ${SEEDED_API_USER.userCode} (${emulator.apiUsers().find((u) => u.user_code === SEEDED_API_USER.userCode)?.channel_identifier})
  OAuth access token (issues credentials):
    ${SEEDED_OAUTH_TOKENS.issuesCredentials}
Press Ctrl+C to stop.`);

	const shutdown = (signal: string): void => {
		console.log(`\n${signal} received, closing the emulator...`);
		emulator.close().then(
			() => process.exit(0),
			(error) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.once('SIGINT', () => shutdown('SIGINT'));
	process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error) => {
	console.error('emulator failed to start:', error);
	process.exit(1);
});
