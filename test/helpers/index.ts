/**
 * Test harness: runs real n8n workflows in-process through n8n-core.
 * See environment.ts for the entry point and an example.
 */
export * from './environment';
export * from './credentials-helper';
export { testCredential } from './credential-test';
export type { CredentialTestResult, TestCredentialOptions } from './credential-test';
export * from './registry';
export * from './nodes';
export * from './logger';
export { createAdditionalData } from './additional-data';
export type { AdditionalDataOptions } from './additional-data';
export {
	ActiveWorkflow,
	getWorkflowWebhooks,
	TEST_WEBHOOK_TIMEOUT_MS,
	WebhookServer,
} from './webhooks';
export type {
	ActivateWorkflowOptions,
	ActivationMode,
	RunWebhookMethodOptions,
	WebhookCall,
	WebhookMethodName,
	WebhookRequest,
	WebhookResponse,
} from './webhooks';
