/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	setupFiles: ['<rootDir>/test/setup/env.ts'],
	testTimeout: 60000,
	// Two files at once even on 2 cores (Jest's default there is one): many integration tests wait
	// on the emulator, the wall clock or a loopback socket, and another file's CPU fills those waits.
	// No test needs an idle machine: CI runs the n8n installs beside it (.ci/run).
	maxWorkers: 2,
};
