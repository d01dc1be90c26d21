/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * `npm run screenshots`: pictures of the package in n8n's editor, taken in headless Chromium
 * (Debian's `chromium` package, driven by playwright-core; no browser download), into docs/images/:
 *
 *   node-picker.png        the node panel's search: the grouped "Seller Platform" entry and its description
 *   operation-picker.png   the node's actions in the editor's node panel
 *   node-parameters.png    the Seller Platform node open, with its resource list
 *   credential-form.png    the Seller Platform API credential, tested against the emulator
 *   finished-run.png       the "released purchase orders" example run from the editor
 *   finished-run-output.png   that run's sheet rows
 *   trigger-run.png        a run of the trigger example started by a sandbox order's event
 *   fulfil-run.png         the "fulfil an FBPI order" example run from its poll trigger for a new sandbox order
 *   schema-preview.png     the "Preview" fields of Purchase Order → Get (the package's output schema)
 *                          in the input panel of the node after it, before any run
 *   execution-hints.png    the output panel of a run with two 429s and a failed item: the node's hints
 *   mcp-example.png        the MCP example (MCP Server Trigger and its eight Seller Platform tools)
 *                          on the canvas
 *
 * `SCREENSHOTS_ONLY=mcp-example,node-picker npm run screenshots` takes only the pictures named
 * (without `.png`), and leaves the others as they are.
 *
 * Not part of CI. Installs Chromium and an emoji font with apt-get when they are missing and this
 * runs as root.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';

import type { StoredCredential, StoredWorkflow, WorkflowJson, WorkflowNode } from './lib/client';
import { n8nInstall, REPO_ROOT } from './lib/n8n';
import { CREDENTIAL_TYPE, NODE_TYPE } from './lib/setup';
import { startStack, type Stack } from './lib/stack';
import { sleep } from './lib/wait';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT_DIR = join(REPO_ROOT, 'docs', 'images');
const MCP_EXAMPLE = 'seller-assistant-mcp.json';
const PICTURES = [
	'node-picker',
	'operation-picker',
	'node-parameters',
	'credential-form',
	'finished-run',
	'finished-run-output',
	'trigger-run',
	'fulfil-run',
	'schema-preview',
	'execution-hints',
	'mcp-example',
];
/** The pictures to take: those of `SCREENSHOTS_ONLY` (comma-separated), or every one. */
const ONLY = onlyPictures(process.env.SCREENSHOTS_ONLY);
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** Debian's packages the pictures need: the browser, and a font for the emoji of sticky notes. */
const SYSTEM_PACKAGES = [
	{ name: 'chromium', file: CHROMIUM },
	{ name: 'fonts-noto-color-emoji', file: '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf' },
];

function ensureChromium(): void {
	const missing = SYSTEM_PACKAGES.filter(({ file }) => !existsSync(file)).map(({ name }) => name);
	if (!missing.length) return;
	if (process.getuid?.() !== 0) {
		throw new Error(
			`${missing.join(' and ')} missing: install Debian's packages (sudo apt-get install -y ${missing.join(' ')})`,
		);
	}
	console.log(`Installing Debian's packages (apt-get install -y ${missing.join(' ')}) ...`);
	execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
	execFileSync('apt-get', ['install', '-y', '-qq', ...missing], {
		stdio: 'inherit',
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	});
}

function onlyPictures(list: string | undefined): string[] | undefined {
	const names = (list ?? '')
		.split(',')
		.map((name) => name.trim().replace(/\.png$/, ''))
		.filter(Boolean);
	const unknown = names.filter((name) => !PICTURES.includes(name));
	if (unknown.length)
		throw new Error(`SCREENSHOTS_ONLY: no picture ${unknown.join(', ')} (${PICTURES.join(', ')})`);
	return names.length ? names : undefined;
}

/** Whether any of these pictures is to be taken. */
function wanted(...pictures: string[]): boolean {
	return !ONLY || pictures.some((name) => ONLY.includes(name));
}

async function shot(
	page: Page,
	name: string,
	clip?: { x: number; y: number; width: number; height: number },
) {
	if (!wanted(name.replace(/\.png$/, ''))) return;
	const path = join(OUT_DIR, name);
	await page.screenshot({ path, clip });
	console.log(`  ${name}`);
}

/** Closes whatever n8n shows on first visit (banners, tours, "what's new"). */
async function dismissPopups(page: Page): Promise<void> {
	for (const label of ['Got it', 'Dismiss', 'Close', 'Skip', 'Maybe later', 'Not now']) {
		const button = page.getByRole('button', { name: label, exact: true });
		if (
			await button
				.first()
				.isVisible()
				.catch(() => false)
		)
			await button
				.first()
				.click()
				.catch(() => undefined);
	}
	await page.keyboard.press('Escape').catch(() => undefined);
}

async function openWorkflow(page: Page, stack: Stack, id: string): Promise<void> {
	await page.goto(`${stack.n8n.baseUrl}/workflow/${id}`);
	await page.locator('.vue-flow__node').first().waitFor({ timeout: 60_000 });
	await sleep(2500);
	await dismissPopups(page);
	await sleep(300);
}

type NodeSpec = Pick<WorkflowNode, 'name' | 'type' | 'typeVersion' | 'parameters'> &
	Partial<WorkflowNode>;

/** A workflow of nodes in a row, each one's main output connected to the next. */
function chain(name: string, nodes: NodeSpec[]): WorkflowJson {
	const connections: Record<string, unknown> = {};
	for (let i = 1; i < nodes.length; i++)
		connections[nodes[i - 1].name] = { main: [[{ node: nodes[i].name, type: 'main', index: 0 }]] };
	return {
		name,
		nodes: nodes.map((node, i) => ({ ...node, id: randomUUID(), position: [i * 240, 300] })),
		connections,
		settings: { executionOrder: 'v1' },
	};
}

const manualTrigger: NodeSpec = {
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	parameters: {},
};
const getPurchaseOrder = (credential: StoredCredential, poNr: string): NodeSpec => ({
	name: 'Get purchase order',
	type: NODE_TYPE,
	typeVersion: 1,
	parameters: { resource: 'purchaseOrder', operation: 'get', poNr, options: {} },
	credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
});

/** The runs of the trigger example, activated and started by a sandbox order's event. */
async function triggerExampleRuns(stack: Stack, trigger: StoredWorkflow) {
	const { client, examples, n8n } = stack;
	await client.activate(trigger.id);
	for (let i = 0; i < 60 && !(await client.executions(trigger.id)).length; i++) {
		const destinations = (await (
			await fetch(`${stack.emulator.controlUrl}/destinations`)
		).json()) as Array<{ url: string }>;
		if (destinations.some((d) => d.url.startsWith(n8n.baseUrl))) {
			await client.runAndWait(examples.get('create-sandbox-order.json')!);
			for (let j = 0; j < 40 && !(await client.executions(trigger.id)).length; j++)
				await sleep(250);
			break;
		}
		await sleep(500);
	}
	return await client.executions(trigger.id);
}

/**
 * The MCP example as a user has it after its set-up: the Seller Platform credential on its tools
 * and a bearer credential (a random token) on its trigger.
 */
async function mcpExample(stack: Stack): Promise<StoredWorkflow> {
	const shipped = stack.examples.get(MCP_EXAMPLE)!;
	const bearer = await stack.client.createCredential(
		'Seller assistant MCP token',
		'httpBearerAuth',
		{
			token: randomBytes(32).toString('hex'),
		},
	);
	return await stack.client.createWorkflow({
		name: shipped.name,
		nodes: shipped.nodes.map((node) =>
			node.credentials?.httpBearerAuth
				? { ...node, credentials: { httpBearerAuth: { id: bearer.id, name: bearer.name } } }
				: node,
		),
		connections: shipped.connections,
		settings: shipped.settings,
	});
}

async function main(): Promise<void> {
	ensureChromium();
	const { chromium } = createRequire(join(n8nInstall(2).dir, 'package.json'))(
		'playwright-core',
	) as typeof import('playwright-core');
	mkdirSync(OUT_DIR, { recursive: true });
	const dataDir = join(REPO_ROOT, '.tmp', `screenshots-n8n-${process.pid}`);
	rmSync(dataDir, { recursive: true, force: true });
	let stack: Stack | undefined;
	let browser: Browser | undefined;
	try {
		stack = await startStack({
			dataDir,
			emulator: { exportStepMs: 100, importStepMs: 50 },
			log: console.log,
		});
		const { client, examples, n8n } = stack;
		const purchaseOrders = examples.get('purchase-orders-to-sheet.json')!;

		const trigger = examples.get('new-orders-customer-data.json')!;
		const triggerRuns = wanted('trigger-run') ? await triggerExampleRuns(stack, trigger) : [];

		browser = await chromium.launch({
			executablePath: CHROMIUM,
			args: CHROMIUM_FLAGS,
			headless: true,
		});
		const context = await browser.newContext({
			viewport: { width: 1440, height: 900 },
			deviceScaleFactor: 1,
		});
		const [name, value] = client.authCookie.split('=');
		await context.addCookies([{ name, value: value ?? '', url: n8n.baseUrl }]);
		const page = await context.newPage();
		page.setDefaultTimeout(30_000);

		console.log(`Screenshots into ${OUT_DIR}:`);

		// 1. The node's actions in the node panel.
		if (wanted('node-picker', 'operation-picker')) {
			await openWorkflow(page, stack, purchaseOrders.id);
			await page.keyboard.press('n');
			const search = page.getByPlaceholder(/Search/i).first();
			await search.waitFor();
			await search.fill('Seller Platform');
			await sleep(800);
			// The search result: one "Seller Platform" entry (node and trigger), with its description.
			await shot(page, 'node-picker.png');
			await page.getByText('Seller Platform', { exact: true }).first().click();
			await sleep(1200);
			await shot(page, 'operation-picker.png');
			await page.keyboard.press('Escape');
			await sleep(500);
		}

		// 2. The node open: parameters with the operation list.
		if (wanted('node-parameters')) {
			await openWorkflow(page, stack, purchaseOrders.id);
			await page.locator('.vue-flow__node', { hasText: 'Get purchase order' }).first().dblclick();
			await page.locator('[data-test-id="ndv"]').first().waitFor();
			await sleep(800);
			const resource = page.locator('[data-test-id="parameter-input-resource"]').first();
			if (await resource.isVisible().catch(() => false)) {
				await resource.click();
				await sleep(600);
			}
			await shot(page, 'node-parameters.png');
			await page.keyboard.press('Escape');
			await page.keyboard.press('Escape');
		}

		// 3. The credential form, after its Test.
		if (wanted('credential-form')) {
			await page.goto(`${n8n.baseUrl}/home/credentials/${stack.credential.id}`);
			const modal = page.locator('[data-test-id="editCredential-modal"]').first();
			await modal.waitFor({ timeout: 60_000 });
			await sleep(1000);
			const retry = modal.getByRole('button', { name: /Retry|Test/ }).first();
			if (await retry.isVisible().catch(() => false)) {
				await retry.click();
				await sleep(2000);
			}
			await shot(page, 'credential-form.png');
			await page.keyboard.press('Escape');
		}

		// 4. A finished run, started with the editor's button, then its sheet rows.
		if (wanted('finished-run', 'finished-run-output')) {
			await openWorkflow(page, stack, purchaseOrders.id);
			await page
				.getByRole('button', { name: /Execute workflow/ })
				.first()
				.click({ force: true });
			await page.getByText('3 items').first().waitFor({ timeout: 60_000 });
			await sleep(1500);
			await shot(page, 'finished-run.png');
			await page
				.locator('.vue-flow__node')
				.filter({ has: page.getByText('Sheet rows', { exact: true }) })
				.first()
				.dblclick();
			await page.locator('[data-test-id="ndv"]').first().waitFor();
			await sleep(1500);
			await shot(page, 'finished-run-output.png');
			await page.keyboard.press('Escape');
		}

		// 5. The trigger example's run.
		if (triggerRuns.length) {
			await page.goto(`${n8n.baseUrl}/workflow/${trigger.id}/executions/${triggerRuns[0].id}`);
			await page.locator('iframe, .vue-flow__node').first().waitFor({ timeout: 60_000 });
			await sleep(3000);
			await dismissPopups(page);
			await shot(page, 'trigger-run.png');
		} else if (wanted('trigger-run')) {
			console.log('  (no trigger run to show)');
		}

		// 5b. The "fulfil an FBPI order" example, run from the editor for a new sandbox order.
		if (wanted('fulfil-run')) {
			const fulfil = examples.get('fulfil-fbpi-order.json')!;
			await client.runAndWait(examples.get('create-sandbox-order.json')!);
			const fulfilRun = await client.waitForExecution(await client.run(fulfil, 'New FBPI order'));
			await page.goto(`${n8n.baseUrl}/workflow/${fulfil.id}/executions/${fulfilRun.id}`);
			await page.locator('iframe, .vue-flow__node').first().waitFor({ timeout: 60_000 });
			await sleep(3000);
			await dismissPopups(page);
			await shot(page, 'fulfil-run.png');
		}

		// 6. The output-schema preview: the node after a Seller Platform node that has not run shows
		// the fields of the package's schema (marked "Preview") in its input panel's schema view.
		if (wanted('schema-preview')) {
			const preview = await client.createWorkflow(
				chain('Seller Platform: output schema preview', [
					manualTrigger,
					getPurchaseOrder(stack.credential, 'PO-1001'),
					{ name: 'Next step', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
				]),
			);
			await openWorkflow(page, stack, preview.id);
			await page.locator('.vue-flow__node', { hasText: 'Next step' }).first().dblclick();
			await page.locator('[data-test-id="ndv"]').first().waitFor();
			const input = page.locator('[data-test-id="ndv-input-panel"]').first();
			await input.waitFor();
			const schemaMode = input
				.locator('[data-test-id="ndv-run-data-display-mode"]')
				.getByText('Schema', { exact: true })
				.first();
			if (await schemaMode.isVisible().catch(() => false)) await schemaMode.click();
			await input.locator('[data-test-id="schema-preview-warning"]').first().waitFor();
			await input.getByText('po_release_date_iso').first().waitFor();
			// The NDV's icons of the neighbouring nodes overlap the panel's left edge.
			await page.addStyleTag({ content: '[data-test-id="floating-nodes"] { visibility: hidden }' });
			await sleep(1000);
			// Down to the panel's last entry, without the empty space under it.
			const inputBox = await input.boundingBox();
			const last = await input.getByText('Variables and context').first().boundingBox();
			await shot(
				page,
				'schema-preview.png',
				inputBox && last
					? {
							...inputBox,
							height: Math.min(inputBox.height, last.y + last.height + 24 - inputBox.y),
						}
					: (inputBox ?? undefined),
			);
			await page.keyboard.press('Escape');
		}

		// 7. Execution hints: two 429 answers (repeated after their wait) and an unknown purchase
		// order (404) with "continue on fail", run from the editor's button.
		if (wanted('execution-hints')) {
			const hinted = await client.createWorkflow(
				chain('Seller Platform: execution hints', [
					manualTrigger,
					{
						name: 'PO numbers',
						type: 'n8n-nodes-base.code',
						typeVersion: 2,
						parameters: {
							jsCode: "return ['PO-1001', 'PO-NOPE-1'].map((po_nr) => ({ json: { po_nr } }));",
						},
					},
					{
						...getPurchaseOrder(stack.credential, '={{ $json.po_nr }}'),
						onError: 'continueRegularOutput',
					},
				]),
			);
			const faults = await fetch(`${stack.emulator.controlUrl}/faults`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					count: 2,
					status: 429,
					retryAfter: 0,
					operation: 'GetPurchaseOrder',
				}),
			});
			if (!faults.ok) throw new Error(`injecting faults into the emulator: HTTP ${faults.status}`);
			await openWorkflow(page, stack, hinted.id);
			await page
				.getByRole('button', { name: /Execute workflow/ })
				.first()
				.click({ force: true });
			for (let i = 0; i < 120; i++) {
				const runs = await client.executions(hinted.id);
				if (runs.length && !['new', 'running', 'waiting'].includes(runs[0].status)) break;
				await sleep(500);
			}
			await sleep(1500);
			await page.locator('.vue-flow__node', { hasText: 'Get purchase order' }).first().dblclick();
			await page.locator('[data-test-id="ndv"]').first().waitFor();
			const output = page.locator('[data-test-id="output-panel"]').first();
			await output
				.getByText(/429s \(too many requests\)/)
				.first()
				.waitFor();
			// Without the run's toast, and down to the item count under the hints (not the items).
			const toast = page.locator('.el-notification', { hasText: 'Workflow executed successfully' });
			await toast
				.locator('.el-notification__closeBtn')
				.first()
				.click()
				.catch(() => undefined);
			await toast
				.first()
				.waitFor({ state: 'hidden', timeout: 15_000 })
				.catch(() => undefined);
			await sleep(1000);
			const panel = await output.boundingBox();
			const count = await output
				.getByText(/^\d+ items?$/)
				.first()
				.boundingBox({ timeout: 5000 })
				.catch(() => null);
			await shot(
				page,
				'execution-hints.png',
				panel && count
					? { ...panel, height: Math.min(panel.height, count.y + count.height + 8 - panel.y) }
					: (panel ?? undefined),
			);
			await page.keyboard.press('Escape');
		}

		// 8. The MCP example on the canvas: the MCP Server Trigger with its eight tools, the
		// trigger's bearer credential created (with a throw-away token, never shown) so that no
		// node shows a credential issue.
		if (wanted('mcp-example')) {
			const mcp = await mcpExample(stack);
			// Taller, so that the canvas's "Execute workflow" button is below the tools' names.
			await page.setViewportSize({ width: 1440, height: 1040 });
			await openWorkflow(page, stack, mcp.id);
			await shot(page, 'mcp-example.png');
			await page.setViewportSize({ width: 1440, height: 900 });
		}
	} catch (error) {
		const pages = browser?.contexts().flatMap((c) => c.pages()) ?? [];
		if (pages[0]) {
			await pages[0]
				.screenshot({ path: join(REPO_ROOT, '.tmp', 'screenshot-failure.png') })
				.catch(() => undefined);
			console.error(`(the page at the failure: .tmp/screenshot-failure.png, ${pages[0].url()})`);
		}
		throw error;
	} finally {
		await browser?.close().catch(() => undefined);
		await stack?.stop();
		rmSync(dataDir, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(`screenshots failed: ${(error as Error).stack ?? error}`);
	process.exit(1);
});
