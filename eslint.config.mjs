// Lint with the rules n8n's own tooling and community-package scanner apply:
// eslint-plugin-n8n-nodes-base (community, credentials, nodes) and
// @n8n/eslint-plugin-community-nodes (recommended). Rules switched off are listed at the end,
// each with its reason (also in the README).
import communityNodes from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import * as jsoncParser from 'jsonc-eslint-parser';
import tseslint from 'typescript-eslint';

export default [
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'coverage/**',
			'.tmp/**',
			'test/**',
			'gulpfile.js',
			'jest.config.js',
		],
	},
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.credentials.rules },
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.nodes.rules },
	},
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts'],
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
		plugins: communityNodes.configs.recommended.plugins,
		rules: communityNodes.configs.recommended.rules,
	},
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
		plugins: communityNodes.configs.recommended.plugins,
		rules: communityNodes.configs.recommended.rules,
	},
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts', 'package.json'],
		rules: {
			// Both rules below come from eslint-plugin-n8n-nodes-base and contradict the newer
			// @n8n/eslint-plugin-community-nodes rules that replace them: credential-documentation-url
			// wants a full URL (the old rule wants a camel-cased slug of n8n's own docs), and
			// node-connection-type-literal wants NodeConnectionTypes.Main (the old rules want 'main').
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			// The old rule asks for a password field for anything named like "key", including the
			// Key ID, which is no secret (it is the sub claim of every login token); the newer
			// credential-password-field / credential-unnecessary-password rules judge secrets better.
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		// The stored session (sessionCookie) is a secret, so it is a password field (n8n then blanks
		// it before the credential reaches the editor); the rule judges secrets by field name and
		// does not count a session cookie among them.
		files: ['credentials/**/*.ts'],
		rules: { '@n8n/community-nodes/credential-unnecessary-password': 'off' },
	},
];
