import type { z } from 'zod';
import type { ExportQuery } from '../../../common/schemas/assessments';
import type { TenantCtx } from '../../context';
import type { AppDeps } from '../../deps';
import { attachment, type Download } from '../../download';
import { MIME } from '../../ingest/detect';
import { exportCsv, exportFileName, exportJson, exportOriginalFile, exportXlsx } from './export';
import { loadQuestions } from './review';
import { loadBatch } from './service';

const ORIGINAL_MIME = { xlsx: MIME.xlsx, csv: `${MIME.csv}; charset=utf-8`, docx: MIME.docx } as const;
// An assessment holds a customer's answers: never kept by a shared cache.
const PRIVATE = 'private, no-store';

const binary = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** One assessment in the format asked for: JSON (the default), CSV, a new workbook, or the customer's own file. */
export async function exportAssessment(
  deps: AppDeps,
  ctx: TenantCtx,
  id: string,
  query: z.output<typeof ExportQuery>,
): Promise<Download> {
  const batch = await loadBatch(ctx, id);
  const rows = await loadQuestions(ctx, batch.id);
  const opts = { drafts: query.drafts ?? false, scope: query.scope, machine: query.machine ?? true };
  if (query.format === 'csv') {
    return {
      contentType: 'text/csv; charset=utf-8',
      disposition: attachment(exportFileName(batch, 'csv', opts)),
      cacheControl: PRIVATE,
      body: exportCsv(rows, opts),
    };
  }
  if (query.format === 'original') {
    const { bytes, extension } = await exportOriginalFile(deps.storage, batch, rows, opts);
    return {
      contentType: ORIGINAL_MIME[extension],
      disposition: attachment(exportFileName(batch, extension, opts)),
      cacheControl: PRIVATE,
      body: binary(bytes),
    };
  }
  if (query.format === 'xlsx') {
    const bytes = await exportXlsx(deps.storage, batch, rows, query.sources ?? false, {
      ...opts,
      generic: query.generic ?? false,
    });
    return {
      contentType: MIME.xlsx,
      disposition: attachment(exportFileName(batch, 'xlsx', opts)),
      cacheControl: PRIVATE,
      body: binary(bytes),
    };
  }
  return {
    contentType: 'application/json; charset=utf-8',
    cacheControl: PRIVATE,
    body: JSON.stringify(exportJson(batch, rows, opts)),
  };
}
