/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The example workflows import cleanly in n8n 1.x and 2.x: every node has an id, and every node
 * that listens for webhooks has a webhookId (without one, n8n 1.x stores the webhook path of a
 * workflow imported through its REST API or CLI URL-encoded, and every delivery answers 404; the
 * editor adds one on import, the API does not). The end-to-end suite imports and runs them in both.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WEBHOOK_NODES = [
	'n8n-nodes-seller-platform.sellerPlatformTrigger',
	'n8n-nodes-base.webhook',
	'@n8n/n8n-nodes-langchain.mcpTrigger',
];

interface ExampleNode {
	id?: string;
	name: string;
	type: string;
	webhookId?: string;
}

const examples = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({
		file,
		nodes: (JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: ExampleNode[] })
			.nodes,
	}));

describe('example workflows', () => {
	it('are there, with the trigger example among them', () => {
		expect(examples.map((e) => e.file)).toEqual(
			expect.arrayContaining(['new-orders-customer-data.json', 'purchase-orders-to-sheet.json']),
		);
	});

	it.each(examples.map((e) => [e.file, e.nodes] as const))(
		'%s: every node has a unique id, every webhook node a webhookId',
		(_file, nodes) => {
			const ids = nodes.map((node) => node.id);
			expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
			expect(new Set(ids).size).toBe(ids.length);
			for (const node of nodes.filter((n) => WEBHOOK_NODES.includes(n.type))) {
				expect({ node: node.name, webhookId: node.webhookId }).toEqual({
					node: node.name,
					webhookId: expect.stringMatching(UUID),
				});
			}
		},
	);

	it('no two examples share a webhookId (each would claim the same path)', () => {
		const webhookIds = examples.flatMap((e) =>
			e.nodes.filter((n) => n.webhookId).map((n) => n.webhookId),
		);
		expect(new Set(webhookIds).size).toBe(webhookIds.length);
		expect(webhookIds.length).toBeGreaterThanOrEqual(1);
	});
});
