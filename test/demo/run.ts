/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * `npm run demo`: the package's main job without any account. Starts the bundled emulator of the
 * Seller Platform API, then runs real n8n workflows in-process (n8n-core) with the Seller Platform
 * node and credential against it, and prints what they produced.
 */
import type { IDataObject } from 'n8n-workflow';

import { credentialFields, SEEDED_PO, startEmulator } from '../emulator';
import { chain, createTestEnvironment } from '../helpers';

async function main() {
	const emulator = await startEmulator({ latencyMs: 20 });
	console.log(`Seller Platform emulator: ${emulator.baseUrl} (project ${emulator.projectCode})`);

	const env = createTestEnvironment();
	env.addCredential('demo', 'sellerPlatformApi', credentialFields(emulator));
	const run = async (items: IDataObject[], parameters: IDataObject) =>
		await env.runWorkflow({
			nodes: [
				{ name: 'Items', type: 'testItems', parameters: { items: JSON.stringify(items) } },
				{
					name: 'Seller Platform',
					type: 'sellerPlatform',
					parameters: parameters as never,
					credentials: { sellerPlatformApi: 'demo' },
					onError: 'continueRegularOutput',
				},
			],
			connections: chain('Items', 'Seller Platform'),
		});

	console.log('\n1. Session > Log In');
	const login = await run([{}], { resource: 'session', operation: 'login' });
	console.log(login.json('Seller Platform')[0]);

	console.log('\n2. Purchase Order > Get, for four numbers (one does not exist)');
	const numbers = [
		SEEDED_PO.released,
		SEEDED_PO.releasedSar,
		SEEDED_PO.pendingNoDate,
		'PO-MISSING',
	];
	const orders = await run(
		numbers.map((po) => ({ po })),
		{ resource: 'purchaseOrder', operation: 'get', poNr: '={{ $json.po }}' },
	);
	console.table(
		orders.json('Seller Platform').map((o) =>
			o.error
				? { po_nr: '(error)', status: String(o.error), released: '', lines: '' }
				: {
						po_nr: o.po_nr,
						status: o.po_status,
						released: o.po_release_date_iso ?? '(no date)',
						lines: (o.po_lines as unknown[]).length,
					},
		),
	);

	console.log(
		'\n3. The same workflow over 100 purchase orders, three times (paced under the rate plan of 1500 per minute)',
	);
	const started = Date.now();
	for (let i = 0; i < 3; i++) {
		const bulk = await run(
			Array.from({ length: 100 }, (_, n) => ({ po: `PO-BULK-${i * 100 + n}` })),
			{ resource: 'purchaseOrder', operation: 'get', poNr: '={{ $json.po }}' },
		);
		console.log(`   run ${i + 1}: ${bulk.json('Seller Platform').length} purchase orders`);
	}
	const stats = emulator.stats();
	console.log(
		`   300 purchase orders in ${Date.now() - started} ms, 429 answers: ${stats.statuses['429'] ?? 0}.\n` +
			`   Logins seen by the service: ${stats.logins} (one by "Log In" above, one session shared by every other run).`,
	);

	await emulator.close();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
