#!/usr/bin/env node
/**
 * Runs the checks of n8n's package scanner (@n8n/scan-community-package) on a local folder: the
 * same ESLint config and file sets, inline `eslint-disable` comments ignored. The scanner itself
 * needs a package published with provenance; its lint legs are what can run before publishing.
 *
 *   node test/package/scan.mjs <folder> tarball   the unpacked `npm pack` output: **\/*.js, package.json
 *   node test/package/scan.mjs <folder> source    the repository: package.json, nodes/ and credentials/
 *
 * Prints PASS or FAIL with ESLint's report; exits 0 only on PASS.
 */
import { resolve } from 'node:path';
import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const TARBALL_PATTERNS = ['**/*.js', 'package.json'];

const folder = resolve(process.argv[2] ?? '.');
const leg = process.argv[3] ?? 'tarball';
if (leg !== 'tarball' && leg !== 'source') {
	console.error(`unknown leg "${leg}": tarball or source`);
	process.exit(2);
}
const result = await analyzePackage(
	folder,
	leg === 'source' ? SOURCE_FILE_PATTERNS : TARBALL_PATTERNS,
);
console.log(
	result.passed
		? `PASS (${leg}) ${folder}`
		: `FAIL (${leg}) ${folder}: ${result.message}\n${result.details ?? ''}`,
);
process.exitCode = result.passed ? 0 : 1;
