import { ApiRequestError, apiDownload, isApiRequestError, saveFile } from './api';

/** Today's UTC date as YYYY-MM-DD, the stamp in export file names (PRODUCT §12, e.g. documents-YYYY-MM-DD.csv). */
export function todayStamp(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * POSTs `body` to an export endpoint and saves the file it answers with. PRODUCT §11 gives these calls a fixed
 * message (`failure`); the server's own sentence is kept only when the user can act on it (too many selected, an entry
 * deleted meanwhile), not for a server fault.
 */
export async function postExport(path: string, fileName: string, body: unknown, failure: string): Promise<void> {
  try {
    saveFile(await apiDownload('POST', path, fileName, { body, errorFallback: failure }));
  } catch (error) {
    if (isApiRequestError(error) && error.status >= 500) throw new ApiRequestError(error.status, failure, error.code);
    throw error;
  }
}
