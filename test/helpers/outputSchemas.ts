/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The output schemas of the Seller Platform node as n8n reads them, and their check against what
 * the node really outputs.
 *
 * n8n's editor previews a node's output fields from `GET /schemas/<node type>/<version>/<resource>/
 * <operation>.json` (the version padded to major.minor.patch: typeVersion 1 → `1.0.0`); the server
 * answers it with n8n-core's `resolveOutputSchemaPath`, from the folder of the node's compiled file:
 * `dist/nodes/SellerPlatform/__schema__/v1.0.0/<resource>/<operation>.json` (the build copies the
 * schemas of nodes/SellerPlatform/__schema__ there). Here the same resolver finds the same file.
 *
 * A schema lets the service add fields (`additionalProperties` is left open), but the tests hold
 * every output to it strictly: an object that lists `properties` without saying anything about
 * `additionalProperties` must have no other field, so a field the node or the emulator outputs
 * is always documented. Objects whose fields the API leaves open say `additionalProperties`.
 */
import { existsSync, readFileSync } from 'fs';
import { dirname } from 'path';
import Ajv, { type ValidateFunction } from 'ajv';
import { resolveOutputSchemaPath } from 'n8n-core';
import { NodeHelpers, type IDataObject, type INode, type Workflow } from 'n8n-workflow';

import type { WorkflowResult } from './environment';
import { loadPackage, PACKAGE_NAME } from './n8n';
import { nodeOperationNames } from './nodeOperations';

export const NODE_TYPE = 'sellerPlatform';

/**
 * Every resource/operation of the node (`resource/operation`), read from its description
 * (helpers/nodeOperations.ts): each has a schema per node version.
 */
export const OPERATIONS: readonly string[] = nodeOperationNames();

/** The folder of the node's compiled file, as n8n's `LoadNodesAndCredentials.resolveSchema` takes it. */
async function nodeDir(): Promise<string> {
	const loader = await loadPackage();
	const known = loader.known.nodes[NODE_TYPE];
	if (!known) throw new Error(`The package has no node ${NODE_TYPE}`);
	return dirname(loader.resolveSourcePath(known.sourcePath));
}

/** Where n8n reads the schema of a resource/operation (it may not exist). */
export async function outputSchemaPath(
	resource: string,
	operation: string,
	version: number | string = 1,
): Promise<string> {
	const path = resolveOutputSchemaPath({ nodeDir: await nodeDir(), version, resource, operation });
	if (!path) throw new Error(`No schema path for ${resource}/${operation}`);
	return path;
}

/** The schema with every object that lists properties, and is silent on others, closed. */
function strict(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(strict);
	if (!schema || typeof schema !== 'object') return schema;
	const copy = Object.fromEntries(
		Object.entries(schema).map(([key, value]) => [key, strict(value)]),
	) as IDataObject;
	if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
	return copy;
}

const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
const validators = new Map<string, ValidateFunction>();

function validatorFor(path: string): ValidateFunction {
	let validate = validators.get(path);
	if (!validate) {
		validate = ajv.compile(strict(JSON.parse(readFileSync(path, 'utf8'))) as object);
		validators.set(path, validate);
	}
	return validate;
}

/**
 * The output item of a file read by Read Rows From a CSV File (mappingMode `csvFile`), the same
 * for every batch operation that offers it: a summary of the file, not a row.
 */
export const CSV_FILE_SUMMARY_SCHEMA = {
	type: 'object',
	properties: {
		fileName: { type: ['string', 'null'], description: 'The name of the file read' },
		rowsRead: {
			type: 'integer',
			description: 'Rows of the file (the header and empty lines aside)',
		},
		rowsSent: { type: 'integer', description: 'Rows sent to the service' },
		requests: { type: 'integer', description: 'Requests made' },
		rowsApplied: { type: 'integer', description: 'Rows the service applied' },
		rowsFailed: {
			type: 'integer',
			description: 'Rows the service refused or left out, or whose request failed',
		},
		failures: {
			type: 'array',
			description: 'The first 100 rows that failed',
			items: {
				type: 'object',
				properties: {
					line: { type: 'integer' },
					key: { type: 'object', additionalProperties: true },
					message: { type: 'string' },
					status_code: { type: 'string' },
					http_code: { type: 'string' },
				},
				required: ['line', 'key', 'message'],
			},
		},
		error: { type: 'string', description: 'With Continue On Fail: why the file failed' },
	},
	required: ['rowsRead', 'rowsSent', 'requests', 'rowsApplied', 'rowsFailed', 'failures'],
};

/** What is wrong with one output item's JSON for its resource/operation; empty when nothing. */
export async function outputSchemaProblems(
	resource: string,
	operation: string,
	json: unknown,
	version: number | string = 1,
): Promise<string[]> {
	if (version === 'csvFile') {
		const validate = ajv.compile(strict(CSV_FILE_SUMMARY_SCHEMA) as object);
		if (validate(json)) return [];
		return (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
	}
	const path = await outputSchemaPath(resource, operation, version);
	if (!existsSync(path)) return [`no output schema for ${resource}/${operation} at ${path}`];
	const validate = validatorFor(path);
	if (validate(json)) return [];
	return (validate.errors ?? []).map((error) => {
		const where = error.instancePath || '(item)';
		const extra =
			'additionalProperty' in error.params
				? ` "${String(error.params.additionalProperty)}" (a field the schema does not describe)`
				: '';
		return `${where} ${error.message ?? 'is invalid'}${extra}`;
	});
}

/** An item of "continue on fail" (`{ error, details }`, or n8n's own `{ error }`): not an output. */
export function isErrorItem(json: IDataObject): boolean {
	const keys = Object.keys(json);
	return (
		keys.includes('error') && keys.every((key) => ['error', 'details', 'message'].includes(key))
	);
}

/** The operations with Simplify (nodes/SellerPlatform/actions/shapes/simplify.ts), by resource. */
export const SIMPLIFY_OPERATIONS = [
	'fbpiOrder/get',
	'fbpiOrder/getMany',
	'offer/get',
	'fbnShipment/get',
	'fbnShipment/getMany',
] as const;

/**
 * The schema versions an output may match: for an operation with Simplify, the simplified output
 * is described by version 1.1's file (what new nodes output by default), the whole answer by
 * version 1's, whatever the node's version (either, when an expression sets Simplify); any other
 * operation by its node's version.
 */
function schemaVersions(name: string, parameters: INode['parameters'], typeVersion: number) {
	if (!(SIMPLIFY_OPERATIONS as readonly string[]).includes(name)) return [typeVersion];
	if (typeof parameters.simplify === 'boolean') return [parameters.simplify ? '1.1.0' : '1.0.0'];
	return ['1.0.0', '1.1.0'];
}

/** The node's resource and operation, defaults included, as n8n resolves its parameters. */
function resourceAndOperation(node: INode, workflow: Workflow) {
	const type = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const parameters =
		NodeHelpers.getNodeParameters(
			type.description.properties,
			node.parameters,
			true,
			false,
			node,
			type.description,
		) ?? node.parameters;
	const [resource, operation] = [String(parameters.resource), String(parameters.operation)];
	const versions =
		parameters.mappingMode === 'csvFile'
			? ['csvFile']
			: schemaVersions(`${resource}/${operation}`, parameters, node.typeVersion);
	return { resource, operation, versions };
}

/**
 * Checks every output item of every Seller Platform node that ran (every run) against the schema of
 * its resource/operation, error items and the error output left out; throws with every mismatch.
 */
export async function checkOutputSchemas(
	result: WorkflowResult,
	workflow: Workflow,
): Promise<void> {
	const problems: string[] = [];
	for (const node of Object.values(workflow.nodes)) {
		if (node.type.replace(`${PACKAGE_NAME}.`, '') !== NODE_TYPE) continue;
		const runs = result.run.data.resultData.runData[node.name] ?? [];
		let operation: ReturnType<typeof resourceAndOperation> | undefined;
		for (const [runIndex, task] of runs.entries()) {
			// The node has one output; a second one is n8n's error output ("continue (using error
			// output)"): the failed input items with the error, no output of the operation.
			for (const [outputIndex, items] of (task.data?.main ?? []).slice(0, 1).entries()) {
				for (const [itemIndex, item] of (items ?? []).entries()) {
					if (isErrorItem(item.json)) continue;
					operation ??= resourceAndOperation(node, workflow);
					const { resource, versions } = operation;
					const each = await Promise.all(
						versions.map(
							async (version) =>
								await outputSchemaProblems(resource, operation!.operation, item.json, version),
						),
					);
					const found = each.find((problems) => problems.length === 0) ?? each[0];
					for (const problem of found) {
						problems.push(
							`"${node.name}" (${operation.resource}/${operation.operation}) run ${runIndex}, output ${outputIndex}, item ${itemIndex}: ${problem}`,
						);
					}
				}
			}
		}
	}
	if (problems.length) {
		throw new Error(
			`Output not as its schema (nodes/SellerPlatform/__schema__) says:\n${problems.join('\n')}`,
		);
	}
}
