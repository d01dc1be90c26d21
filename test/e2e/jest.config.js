/**
 * The end-to-end suite (`npm run test:e2e`): the package inside a real n8n, one named test per
 * check. Its own config: the checks start n8n, so they stay out of `npm test`.
 */
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	testTimeout: 300000,
	// One n8n, checks in order; a check's own output (progress lines) is shown as it comes.
	maxWorkers: 1,
	verbose: true,
	// The suite ends its own processes (n8n, the emulator) in afterAll; what may stay open after it
	// is keep-alive sockets of fetch to them, which would only keep Jest waiting.
	forceExit: true,
};
