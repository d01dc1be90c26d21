/**
 * transport/: the request pipeline, the registry of node runs, connection settings, downloads and
 * their node options, the pages of a list, the warehouse list of the editor.
 */
export { downloadFile } from './download';
export {
	downloadTimeoutOption,
	MAX_DOWNLOAD_TIMEOUT_SECONDS,
	maxFileSizeOption,
} from './downloadOptions';
export { pages } from './pages';
export { apiRequest, sessionSecrets } from './request';
export { loginsDuringRun, pollRun, runPolicy, setRunLimits, suggestedConcurrency } from './run';
export { connectionSettings } from './settings';
export { knownWarehouses, searchWarehouses } from './warehouses';
