/** OAuth access tokens bound to a project and a workflow, and the exchange that runs the workflow. */
import { randomBytes, randomUUID } from 'node:crypto';

import { ApiError, invalidArgument } from '../errors';
import {
	OTHER_PROJECT_CODE,
	SEEDED_OAUTH_CLIENT,
	SEEDED_OAUTH_TOKEN_TABLE,
	type OAuthWorkflow,
} from '../seed';

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

/** CreateToken response. */
export interface CreateTokenResult {
	access_token: string;
	token_type: 'TOKEN_TYPE_BEARER';
	expires_in: string;
	scopes: string[];
	project_code: string;
}

/** What `issueOAuthCode` takes: the workflow of the token the code gives, and its project. */
export interface IssueOAuthCodeOptions {
	workflow?: OAuthWorkflow;
	/** The seller's project the token is for; default the emulator's. */
	projectCode?: string;
	/** How long the code can be used, ms; default 10 minutes. */
	ttlMs?: number;
}

interface AuthorizationCode {
	clientId: string;
	workflow: OAuthWorkflow;
	projectCode: string;
	expiresAt: number;
}

/** How long a token CreateToken hands out lasts. */
export const CREATED_TOKEN_TTL_SECONDS = 3600;

const WORKFLOWS: readonly OAuthWorkflow[] = [
	'issue-credentials',
	'seller-profile',
	'async-onboarding',
];

export class OAuthStore {
	private readonly tokens = new Map<string, OAuthToken>();
	/** Authorization codes not used yet; each works once. */
	private readonly codes = new Map<string, AuthorizationCode>();

	constructor(primaryProjectCode: string) {
		for (const seed of SEEDED_OAUTH_TOKEN_TABLE) {
			this.tokens.set(seed.token, {
				workflow: seed.workflow,
				projectCode: seed.project === 'primary' ? primaryProjectCode : OTHER_PROJECT_CODE,
				expiresAt: seed.expiresAt ?? null,
			});
		}
	}

	/** An authorization code for the seeded client, as the consent redirect would bring it. */
	issueCode(options: IssueOAuthCodeOptions, defaultProject: string, now: number): string {
		const workflow = options.workflow ?? 'issue-credentials';
		if (!WORKFLOWS.includes(workflow)) {
			throw invalidArgument(`workflow must be one of ${WORKFLOWS.join(', ')}`);
		}
		const code = `ac_${randomBytes(12).toString('base64url')}`;
		this.codes.set(code, {
			clientId: SEEDED_OAUTH_CLIENT.clientId,
			workflow,
			projectCode: options.projectCode ?? defaultProject,
			expiresAt: now + (options.ttlMs ?? 600_000),
		});
		return code;
	}

	/**
	 * CreateToken: the client's ID and secret and an unused code issued for that client give a new
	 * access token (which ExchangeToken then takes). The code is spent, whatever the outcome after
	 * the client check. 400 for every refusal: a 401 would make clients log in again.
	 */
	createToken(
		body: { grant_type: string; code: string; client_id: string; client_secret: string },
		now: number,
	): CreateTokenResult {
		if (body.grant_type !== 'authorization_code') {
			throw invalidArgument(
				`grant_type ${JSON.stringify(body.grant_type)} is not supported: use authorization_code`,
			);
		}
		const client = SEEDED_OAUTH_CLIENT;
		if (body.client_id !== client.clientId || body.client_secret !== client.clientSecret) {
			throw invalidArgument('invalid client: unknown client_id or wrong client_secret');
		}
		const code = this.codes.get(body.code);
		this.codes.delete(body.code);
		if (!code || code.clientId !== body.client_id) {
			throw invalidArgument(
				'code is not a valid authorization code of this client (unknown or used)',
			);
		}
		if (code.expiresAt <= now) throw invalidArgument('code expired');
		// A JWT, as noon's gateway issues them: header, claims and signature, Base64url.
		const part = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url');
		const claims = {
			sub: code.clientId,
			project: code.projectCode,
			jti: randomBytes(16).toString('hex'),
		};
		const token = `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}.${randomBytes(48).toString('base64url')}`;
		this.tokens.set(token, {
			workflow: code.workflow,
			projectCode: code.projectCode,
			expiresAt: now + CREATED_TOKEN_TTL_SECONDS * 1000,
		});
		return {
			access_token: token,
			token_type: 'TOKEN_TYPE_BEARER',
			expires_in: `${CREATED_TOKEN_TTL_SECONDS}s`,
			scopes: [...client.scopes],
			project_code: code.projectCode,
		};
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
