/** Exports (impex): status, and the files behind download links. */
import { EXPORT_FILES_PATH } from '../state/exports';
import { requiredString } from '../validate';
import type { RouteModule } from './types';

export const DOWNLOAD_EXPORT_OPERATION = 'DownloadExport';

export const exportRoutes: RouteModule = () => [
	{
		operation: 'GetExportStatus',
		method: 'POST',
		path: '/impex/v1/export/status',
		auth: 'session',
		rateLimited: true,
		handler: ({ state, body, session, baseUrl, now }) => ({
			body: state.exports.status(
				session!.projectCode,
				requiredString(body, 'export_code'),
				baseUrl,
				now,
			),
		}),
	},
	{
		// Like a signed cloud storage link: no session, the token in the query is the authorisation.
		operation: DOWNLOAD_EXPORT_OPERATION,
		method: 'GET',
		path: `${EXPORT_FILES_PATH}/{file}`,
		auth: 'public',
		rateLimited: false,
		userAgent: 'optional',
		handler: ({ state, params, query, now }) => {
			const { fileName, csv } = state.exports.download(params.file, query.get('token'), now);
			return {
				body: csv,
				contentType: 'text/csv; charset=utf-8',
				headers: { 'Content-Disposition': `attachment; filename="${fileName}"` },
			};
		},
	},
];
