/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The package's layers, read from the source's own imports (`import type` and `export … from`
 * count as imports):
 *
 *   credentials/  nodes/SellerPlatform/  nodes/SellerPlatformTrigger/
 *          \               |                    /
 *           -------->  nodes/shared/index.ts  <--
 *                              |
 *   parameters -> transport -> auth -> pacing -> gateway -> common -> errors -> credential
 *                                                      (the folders of nodes/shared/)
 *
 * - The credential and both nodes import the shared layer through nodes/shared/index.ts only;
 *   neither the credential nor the trigger reaches into the action node, nor the reverse.
 * - Inside nodes/shared/, a folder imports itself and the folders after it in `SHARED_ORDER`,
 *   never one before it; its files import each other directly, never through an index.ts (each
 *   folder's index.ts re-exports its own files, nodes/shared/index.ts the folders' index.ts). The
 *   shared layer imports nothing outside it but package.json (common/constants.ts: the package's
 *   name and version).
 * - No two product modules import each other, directly or around a longer circle.
 * - Module state (what outlives one node run) only in the modules of `STATEFUL`, each declaration
 *   with its key and bound in its comment ("Bound: …").
 * - No product function is longer than `MAX_FUNCTION_LINES`.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';
import * as ts from 'typescript';

const ROOT = resolve(__dirname, '../..');

function sourceFiles(folder: string): string[] {
	return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

const PRODUCT = [...sourceFiles('credentials'), ...sourceFiles('nodes')];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The folders of nodes/shared/, in the one direction their imports go: each imports only later ones. */
const SHARED_ORDER = [
	'parameters',
	'transport',
	'auth',
	'pacing',
	'gateway',
	'common',
	'errors',
	// Last: messages of every folder (errors/ too) name the credential's fields; it imports none.
	'credential',
];

/**
 * The modules that hold state beyond one node run, with its bound. Each declaration of module
 * state in them says its key and bound in its own comment ("Bound: …").
 */
const STATEFUL: Record<string, string> = {
	'nodes/shared/auth/session.ts':
		'the 1000 login identities whose logins ended last: one running login, one session, 50 retired ones each; 50 first-sent dates; refusals and run logins weak',
	'nodes/shared/auth/login.ts': 'login fingerprints: weak, per decrypted credentials object',
	'nodes/shared/auth/proven.ts': 'the 1000 login identities proven last (digests)',
	'nodes/shared/pacing/limiters.ts':
		'the 2000 limiters (rate scope × endpoint × plan) used last, each one window of starts and 64 round trips',
	'nodes/shared/pacing/paced.ts': '429 echoes: weak, per error object',
	'nodes/shared/transport/run.ts': "per node run: weak, gone with the run's context",
	'nodes/shared/transport/settings.ts': "per node run: weak, gone with the run's context",
	'nodes/shared/transport/download.ts':
		'4 downloads in flight, 2 per credential; one line entry per waiting download',
	'nodes/SellerPlatformTrigger/deliveries.ts':
		'1000 delivery keys per registration, 100 registrations, 64 pending records each',
	'nodes/SellerPlatformTrigger/owners.ts': 'one owner per destination registered; one number',
	'nodes/shared/common/life.ts': "this n8n life's id and start times",
	'nodes/SellerPlatformPollTrigger/sameProcess.ts':
		'one entry per poll-trigger node polling now; the 20000 order keys emitted last, for 10 minutes',
	'nodes/SellerPlatform/actions/import/sentRequests.ts': 'the newest 2000 client references',
	'nodes/shared/transport/warehouses.ts':
		'50 warehouse lists (per credential), each at most 20 pages of 500, for 5 minutes; failed reads dropped',
};

/** The module specifiers a source imports or re-exports, type-only ones and require() included. */
function specifiers(text: string): string[] {
	return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

/** The repository file a relative specifier of `file` names (`.ts`, `/index.ts`, `.json`). */
function resolveImport(file: string, specifier: string): string {
	const base = relative(ROOT, resolve(ROOT, dirname(file), specifier));
	// `base` itself only when it names a file with its extension (package.json).
	const candidates = [`${base}.ts`, join(base, 'index.ts'), ...(/\.\w+$/.test(base) ? [base] : [])];
	return candidates.find((path) => existsSync(join(ROOT, path))) ?? base;
}

/** The product files a file imports (relative imports only; packages are left out). */
function localImports(file: string, text: string = read(file)): string[] {
	return specifiers(text)
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => resolveImport(file, specifier));
}

type Graph = Map<string, string[]>;

const GRAPH: Graph = new Map(PRODUCT.map((file) => [file, localImports(file)]));

/** Every circle of imports, found by a depth-first walk: each as the files around it. */
function findCycles(graph: Graph): string[][] {
	const state = new Map<string, 'open' | 'done'>();
	const path: string[] = [];
	const cycles: string[][] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		path.push(file);
		for (const target of graph.get(file) ?? []) {
			if (state.get(target) === 'open') cycles.push([...path.slice(path.indexOf(target)), target]);
			else if (!state.has(target)) visit(target);
		}
		path.pop();
		state.set(file, 'done');
	};
	for (const file of graph.keys()) if (!state.has(file)) visit(file);
	return cycles;
}

/** The layer of a repository path: a folder of the shared layer, the surface, a node, the credential. */
function layerOf(path: string): string {
	if (path === 'nodes/shared/index.ts') return 'shared surface';
	const shared = /^nodes\/shared\/([^/]+)\//.exec(path);
	if (shared) return `shared/${shared[1]}`;
	if (path.startsWith('nodes/SellerPlatformTrigger/')) return 'trigger';
	if (path.startsWith('nodes/SellerPlatformPollTrigger/')) return 'poll trigger';
	if (path.startsWith('nodes/SellerPlatform/')) return 'action node';
	if (path.startsWith('credentials/')) return 'credential';
	return path;
}

const isIndex = (path: string) => path.endsWith('/index.ts');

/** Why `from` must not import `to`, or undefined when the layers allow it. */
function wrongImport(from: string, to: string): string | undefined {
	const source = layerOf(from);
	const target = layerOf(to);
	if (['credential', 'trigger', 'poll trigger', 'action node'].includes(source)) {
		if (target === source || to === 'nodes/shared/index.ts') return undefined;
		return target.startsWith('shared')
			? `${source} imports the shared layer past its surface (nodes/shared/index.ts)`
			: `${source} imports ${target}`;
	}
	if (source === 'shared surface') {
		return target.startsWith('shared/') && isIndex(to)
			? undefined
			: "the surface re-exports the folders' index.ts only";
	}
	if (!source.startsWith('shared/')) return `${from} is in no layer`;
	if (to === 'package.json' && from === 'nodes/shared/common/constants.ts') return undefined;
	if (!target.startsWith('shared/')) return `the shared layer imports ${to}, outside it`;
	const [own, other] = [source, target].map((layer) => SHARED_ORDER.indexOf(layer.slice(7)));
	if (own < 0 || other < 0) return `${source} or ${target} is not in SHARED_ORDER`;
	if (isIndex(from))
		return target === source && !isIndex(to)
			? undefined
			: 'an index.ts re-exports its own folder only';
	if (isIndex(to))
		return `${from} imports ${to}: files of the shared layer import files, not an index.ts`;
	return other < own
		? `${source} imports ${target}, against ${SHARED_ORDER.join(' -> ')}`
		: undefined;
}

interface StateDeclaration {
	name: string;
	line: number;
	/** Its comment says its bound ("Bound: …"). */
	bounded: boolean;
}

/** A readonly collection type (`ReadonlySet<…>`, `ReadonlyMap<…>`, `ReadonlyArray<…>`): not state. */
const isReadonlyType = (type?: ts.TypeNode) =>
	!!type && ts.isTypeReferenceNode(type) && /^Readonly/.test(type.typeName.getText());

/** The identifier an assignment target (`a.b.c`, `a[k]`) starts from. */
function rootName(node: ts.Expression): string | undefined {
	let current: ts.Expression = node;
	while (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current)) {
		current = current.expression;
	}
	return ts.isIdentifier(current) ? current.text : undefined;
}

/** Names whose properties the file assigns, increments or deletes (`clock.last = …`). */
function mutatedNames(source: ts.SourceFile): Set<string> {
	const names = new Set<string>();
	const note = (target: ts.Expression) => {
		if (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target)) {
			const name = rootName(target);
			if (name) names.add(name);
		}
	};
	const visit = (node: ts.Node) => {
		if (
			ts.isBinaryExpression(node) &&
			node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
			node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
		)
			note(node.left);
		if (
			(ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
			(node.operator === ts.SyntaxKind.PlusPlusToken ||
				node.operator === ts.SyntaxKind.MinusMinusToken)
		)
			note(node.operand);
		if (ts.isDeleteExpression(node)) note(node.expression);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return names;
}

/** Whether `node` holds a `new …` (outside any function). */
function holdsNew(node: ts.Node): boolean {
	if (ts.isNewExpression(node)) return true;
	if (ts.isFunctionLike(node)) return false;
	return ts.forEachChild(node, holdsNew) ?? false;
}

/**
 * The module state a file declares: a top-level `let` or `var`, a `const` made with `new` (or an
 * object or list holding one) unless typed as a readonly collection, a `const` whose properties the
 * file changes, a static class field that is not readonly.
 */
function moduleState(file: string, text: string): StateDeclaration[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const mutated = mutatedNames(source);
	const found: StateDeclaration[] = [];
	const declare = (name: string, statement: ts.Node) => {
		const comments = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
		const comment = comments.map((range) => text.slice(range.pos, range.end)).join('\n');
		const line = source.getLineAndCharacterOfPosition(statement.getStart(source)).line + 1;
		found.push({ name, line, bounded: comment.includes('Bound:') });
	};
	for (const statement of source.statements) {
		if (ts.isClassDeclaration(statement)) {
			for (const member of statement.members) {
				const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
				const is = (kind: ts.SyntaxKind) => modifiers.some((modifier) => modifier.kind === kind);
				if (
					ts.isPropertyDeclaration(member) &&
					is(ts.SyntaxKind.StaticKeyword) &&
					!is(ts.SyntaxKind.ReadonlyKeyword)
				)
					declare(`${statement.name?.text}.${member.name.getText()}`, member);
			}
		}
		if (!ts.isVariableStatement(statement)) continue;
		const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
		for (const declaration of statement.declarationList.declarations) {
			const name = declaration.name.getText();
			const made = !!declaration.initializer && holdsNew(declaration.initializer);
			const stateful =
				!constant ||
				(made && !isReadonlyType(declaration.type)) ||
				(ts.isIdentifier(declaration.name) && mutated.has(name));
			if (stateful) declare(name, statement);
		}
	}
	return found;
}

/** Every function of a file (declarations, methods, arrows, callbacks) longer than `limit` lines. */
function longFunctions(file: string, text: string, limit: number): string[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
	const long: string[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const first = lineOf(node.getStart(source));
			const lines = lineOf(node.getEnd()) - first + 1;
			if (lines > limit) long.push(`${file}:${first} (${lines} lines)`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return long;
}

const MAX_FUNCTION_LINES = 60;

describe('layers', () => {
	it('finds the product files and their imports, type-only imports and re-exports included', () => {
		expect(PRODUCT).toEqual(
			expect.arrayContaining([
				'credentials/SellerPlatformApi.credentials.ts',
				'nodes/SellerPlatform/SellerPlatform.node.ts',
				'nodes/SellerPlatformTrigger/SellerPlatformTrigger.node.ts',
				'nodes/shared/index.ts',
				'nodes/shared/transport/request.ts',
			]),
		);
		expect(GRAPH.get('nodes/SellerPlatformTrigger/registration.ts')).toContain(
			'nodes/shared/index.ts',
		);
		// `import type { LoginGate } from '../pacing/paced'`
		expect(GRAPH.get('nodes/shared/auth/session.ts')).toContain('nodes/shared/pacing/paced.ts');
		// `export { … } from './transport'`
		expect(GRAPH.get('nodes/shared/index.ts')).toContain('nodes/shared/transport/index.ts');
		expect(GRAPH.get('nodes/shared/common/constants.ts')).toContain('package.json');
	});

	it('has no import cycle among the product files', () => {
		expect(findCycles(GRAPH)).toEqual([]);
	});

	it('would catch a cycle, a long one and one closed by a type import or a re-export', () => {
		const pair: Graph = new Map([
			['a.ts', ['b.ts']],
			['b.ts', ['a.ts']],
		]);
		expect(findCycles(pair)).toEqual([['a.ts', 'b.ts', 'a.ts']]);
		const long: Graph = new Map([
			['a.ts', ['b.ts']],
			['b.ts', ['c.ts']],
			['c.ts', ['d.ts', 'a.ts']],
			['d.ts', []],
		]);
		expect(findCycles(long)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
		expect(
			findCycles(
				new Map([
					['a.ts', ['b.ts']],
					['b.ts', []],
				]),
			),
		).toEqual([]);
		expect(specifiers("import type { X } from './b';\nexport { y } from './c';")).toEqual([
			'./b',
			'./c',
		]);
	});

	it('declares every folder of nodes/shared/ in SHARED_ORDER, each with an index.ts', () => {
		const folders = readdirSync(join(ROOT, 'nodes/shared'), { withFileTypes: true });
		expect(
			folders
				.filter((entry) => entry.isDirectory())
				.map((entry) => entry.name)
				.sort(),
		).toEqual([...SHARED_ORDER].sort());
		expect(folders.filter((entry) => entry.isFile()).map((entry) => entry.name)).toEqual([
			'index.ts',
		]);
		for (const folder of SHARED_ORDER) {
			expect(existsSync(join(ROOT, 'nodes/shared', folder, 'index.ts'))).toBe(true);
		}
	});

	it.each(PRODUCT)('%s imports only along the layers', (file) => {
		const wrong = (GRAPH.get(file) ?? []).flatMap((target) => {
			const why = wrongImport(file, target);
			return why ? [`${target}: ${why}`] : [];
		});
		expect(wrong).toEqual([]);
	});

	it('would catch an import against the direction, past the surface, or out of a layer', () => {
		const allowed = [
			['nodes/shared/transport/request.ts', 'nodes/shared/auth/login.ts'],
			['nodes/shared/auth/session.ts', 'nodes/shared/pacing/paced.ts'],
			['nodes/shared/pacing/slots.ts', 'nodes/shared/common/abort.ts'],
			['nodes/SellerPlatform/actions/router.ts', 'nodes/shared/index.ts'],
			['credentials/SellerPlatformApi.credentials.ts', 'nodes/shared/index.ts'],
			['nodes/shared/index.ts', 'nodes/shared/auth/index.ts'],
			['nodes/shared/auth/index.ts', 'nodes/shared/auth/session.ts'],
		];
		for (const [from, to] of allowed) expect(wrongImport(from, to)).toBeUndefined();
		const refused = [
			// against the folders' direction
			['nodes/shared/errors/errors.ts', 'nodes/shared/transport/request.ts'],
			['nodes/shared/pacing/paced.ts', 'nodes/shared/auth/session.ts'],
			// past the surface, or through an index.ts inside the layer
			['nodes/SellerPlatform/actions/router.ts', 'nodes/shared/transport/request.ts'],
			['nodes/SellerPlatformTrigger/registration.ts', 'nodes/shared/gateway/index.ts'],
			['nodes/shared/transport/request.ts', 'nodes/shared/auth/index.ts'],
			['nodes/shared/transport/request.ts', 'nodes/shared/index.ts'],
			['nodes/shared/auth/index.ts', 'nodes/shared/pacing/paced.ts'],
			// across the nodes, or out of the shared layer
			['credentials/SellerPlatformApi.credentials.ts', 'nodes/SellerPlatform/actions/router.ts'],
			['nodes/SellerPlatformTrigger/registration.ts', 'nodes/SellerPlatform/actions/options.ts'],
			[
				'nodes/SellerPlatformPollTrigger/description.ts',
				'nodes/SellerPlatform/actions/warehouse/warehouseCode.ts',
			],
			['nodes/SellerPlatform/actions/router.ts', 'nodes/SellerPlatformTrigger/deliveries.ts'],
			['nodes/shared/auth/login.ts', 'nodes/SellerPlatformTrigger/registration.ts'],
			['nodes/shared/auth/login.ts', 'credentials/SellerPlatformApi.credentials.ts'],
			['nodes/shared/auth/login.ts', 'package.json'],
		];
		for (const [from, to] of refused)
			expect([from, to, wrongImport(from, to)]).toEqual([from, to, expect.any(String)]);
	});

	it('keeps module state in the declared stateful modules only, each declaration with its bound', () => {
		const found = Object.fromEntries(
			PRODUCT.map((file) => [file, moduleState(file, read(file))] as const).filter(
				([, declarations]) => declarations.length > 0,
			),
		);
		expect(Object.keys(found).sort()).toEqual(Object.keys(STATEFUL).sort());
		const unbounded = Object.entries(found).flatMap(([file, declarations]) =>
			declarations.filter((d) => !d.bounded).map((d) => `${file}:${d.line} ${d.name}`),
		);
		expect(unbounded).toEqual([]);
		for (const bound of Object.values(STATEFUL)) expect(bound).toMatch(/\S/);
	});

	it('would catch module state: a collection, a let, a holder changed in place, an object of maps', () => {
		const names = (text: string) =>
			moduleState('x.ts', text).map((d) => `${d.name}${d.bounded ? ' (bounded)' : ''}`);
		expect(names('export const cache = new Map<string, number>();')).toEqual(['cache']);
		expect(names('let count = 0;\nexport const next = () => ++count;')).toEqual(['count']);
		expect(
			names('const clock = { last: 0 };\nexport function tick() {\n\tclock.last++;\n}'),
		).toEqual(['clock']);
		expect(names('export const all = { byKey: new Map<string, string>() };')).toEqual(['all']);
		expect(names('class Registry {\n\tstatic entries: string[] = [];\n}')).toEqual([
			'Registry.entries',
		]);
		expect(
			names('/** Per run. Bound: weak. */\nconst runs = new WeakMap<object, number>();'),
		).toEqual(['runs (bounded)']);
		// Constants are not state.
		expect(
			names("const RULES = { max: 3 };\nconst CODES: ReadonlySet<string> = new Set(['E']);"),
		).toEqual([]);
		expect(names('const make = () => new Map<string, string>();')).toEqual([]);
	});

	it(`keeps every product function at most ${MAX_FUNCTION_LINES} lines`, () => {
		const long = PRODUCT.flatMap((file) => longFunctions(file, read(file), MAX_FUNCTION_LINES));
		expect(long).toEqual([]);
	});

	it('would catch a long function, an arrow or a callback as well', () => {
		const body = Array.from({ length: 61 }, (_, i) => `\tconst v${i} = ${i};`).join('\n');
		expect(longFunctions('a.ts', `function f() {\n${body}\n}`, 60)).toEqual(['a.ts:1 (63 lines)']);
		expect(longFunctions('b.ts', `export const g = run(() => {\n${body}\n});`, 60)).toHaveLength(1);
		expect(longFunctions('c.ts', `function h() {\n\treturn 1;\n}`, 60)).toEqual([]);
	});
});

describe("the tests' one copy of the package", () => {
	/** The .ts files under `folder`, without installed packages (test/e2e/installs). */
	function testFiles(folder: string): string[] {
		return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
			const path = join(folder, entry.name);
			if (entry.isDirectory()) {
				return entry.name === 'node_modules' || path === join('test', 'e2e', 'installs')
					? []
					: testFiles(path);
			}
			return entry.name.endsWith('.ts') ? [path] : [];
		});
	}

	it('is the compiled one in dist/, as n8n loads it: no test imports nodes/ or credentials/', () => {
		const sourceImports = testFiles('test').flatMap((file) =>
			specifiers(read(file))
				.filter((specifier) => specifier.startsWith('.'))
				.map((specifier) => relative(ROOT, resolve(ROOT, dirname(file), specifier)))
				.filter((path) => /^(nodes|credentials)(\/|$)/.test(path))
				.map((path) => `${file} imports ${path}`),
		);
		expect(sourceImports).toEqual([]);
	});
});
