/** transport/: the request pipeline, the registry of node runs, connection settings, downloads. */
export {
	DEFAULT_DOWNLOAD_TIMEOUT_SECONDS,
	DEFAULT_MAX_DOWNLOAD_MB,
	downloadFile,
} from './download';
export { apiRequest } from './request';
export { loginsDuringRun, runPolicy, setRunLimits, suggestedConcurrency } from './run';
export { connectionSettings } from './settings';
