/** OAuth access tokens bound to a project and a workflow, and the exchange that runs the workflow. */
import { randomBytes, randomUUID } from 'node:crypto';

import { ApiError, invalidArgument } from '../errors';
import { OTHER_PROJECT_CODE, SEEDED_OAUTH_TOKEN_TABLE, type OAuthWorkflow } from '../seed';

/** ExchangeToken response. */
export interface OAuthExchangeResult {
	status: { status_id: 0; status_code: 'OK'; message: ''; details: [] };
	project_code: string;
	oauth_request_id: string;
	/** Present only when the workflow completed synchronously; its schema depends on the workflow. */
	result?: Record<string, unknown>;
}

interface OAuthToken {
	workflow: OAuthWorkflow;
	projectCode: string;
	expiresAt: number | null;
}

function runWorkflow(
	workflow: OAuthWorkflow,
	projectCode: string,
	now: number,
): Record<string, unknown> | undefined {
	switch (workflow) {
		case 'issue-credentials':
			return {
				client_id: `noon-oauth-client-${randomBytes(8).toString('hex')}`,
				client_secret: randomBytes(24).toString('base64url'),
				scopes: ['orders.read', 'catalog.write'],
				issued_at: new Date(now).toISOString(),
			};
		case 'seller-profile':
			return {
				project_code: projectCode,
				store_code: 'STR10001',
				store_name: 'Emulator Goods Trading LLC',
				country_codes: ['ae', 'sa'],
			};
		case 'async-onboarding':
			return undefined;
	}
}

export class OAuthStore {
	private readonly tokens = new Map<string, OAuthToken>();

	constructor(primaryProjectCode: string) {
		for (const seed of SEEDED_OAUTH_TOKEN_TABLE) {
			this.tokens.set(seed.token, {
				workflow: seed.workflow,
				projectCode: seed.project === 'primary' ? primaryProjectCode : OTHER_PROJECT_CODE,
				expiresAt: seed.expiresAt ?? null,
			});
		}
	}

	/** Runs the token's workflow for a session of `projectCode`. */
	exchange(accessToken: string, projectCode: string, now: number): OAuthExchangeResult {
		const token = this.tokens.get(accessToken);
		// 400, not 401: a 401 would make clients log in again, and a new session cannot fix the token.
		if (!token)
			throw invalidArgument('access_token is not a valid OAuth access token (unknown token)');
		if (token.expiresAt !== null && token.expiresAt <= now) {
			throw invalidArgument(`access_token expired at ${new Date(token.expiresAt).toISOString()}`);
		}
		if (token.projectCode !== projectCode) {
			throw new ApiError(
				'PERMISSION_DENIED',
				`access_token belongs to project ${token.projectCode}, not to this session's project ${projectCode}`,
			);
		}
		const result = runWorkflow(token.workflow, projectCode, now);
		return {
			status: { status_id: 0, status_code: 'OK', message: '', details: [] },
			project_code: projectCode,
			oauth_request_id: randomUUID(),
			...(result === undefined ? {} : { result }),
		};
	}
}
