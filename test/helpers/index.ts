/** Runs real n8n workflows in-process through n8n-core: see README.md. */
export * from './environment';
export type { CredentialTestResult, LoginRecord } from './credentials';
export type { ActiveWorkflow, WebhookCall } from './webhooks';
export type { ActivePoller, PollingOptions } from './polls';
export { useFilesystemBinaryData } from './n8n';
export { listSearch, type ListSearchCall } from './loadOptions';
export { TEST_TOOL_CALLER_NODE_TYPE } from './tools';
