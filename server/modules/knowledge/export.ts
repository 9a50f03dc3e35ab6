import ExcelJS from 'exceljs';
import { selectionNotFound } from '../../errors';
import { datedName, plainAttachment, type Download } from '../../download';
import { audit } from '../audit/service';
import { canonicalAnswersToCsv, LIBRARY_EXPORT_COLUMNS } from '../../../common/import/csv-export';
import type { CanonicalAnswerView } from '../../../common/schemas/knowledge';
import { loadAnswers } from './queries';
import { presentAnswer } from './presenters';
import type { TenantCtx } from '../../context';

/** `canonical-answers-YYYY-MM-DD.csv` (PRODUCT §12: export files are dated). */
export function exportFilename(format: 'csv' | 'xlsx', now = new Date()): string {
  return datedName('canonical-answers', format, now);
}

/**
 * The selected entries as a file, in the order they were selected. Every id must be in the caller's workspace:
 * an id that is not (deleted meanwhile, or another tenant's) fails the whole export rather than silently
 * leaving rows out.
 */
export async function exportAnswers(
  ctx: TenantCtx,
  input: { answerIds: string[]; format: 'csv' | 'xlsx' },
): Promise<Download> {
  const ids = [...new Set(input.answerIds)];
  const rows = await loadAnswers(ctx, ids);
  if (rows.length !== ids.length) {
    throw selectionNotFound(ids.length - rows.length, 'answers', 'the library');
  }
  const byId = new Map(rows.map((r) => [r.id, presentAnswer(r)]));
  const answers = ids.map((id) => byId.get(id)).filter((a): a is CanonicalAnswerView => a !== undefined);
  await audit(ctx, 'canonical_answers_exported', 'canonical_answer', null, {
    count: answers.length,
    format: input.format,
  });
  if (input.format === 'xlsx') {
    return {
      disposition: plainAttachment(exportFilename('xlsx')),
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      cacheControl: 'no-store',
      body: await answersToXlsx(answers),
    };
  }
  return {
    disposition: plainAttachment(exportFilename('csv')),
    contentType: 'text/csv; charset=utf-8',
    cacheControl: 'no-store',
    body: canonicalAnswersToCsv(answers),
  };
}

const WIDTHS: Record<string, number> = { question: 50, answer: 80, tags: 24, source: 24, owner: 16 };

/**
 * A workbook whose cells are all typed as text, so Excel never evaluates a value as a formula (no neutralising
 * needed, unlike CSV). Header frozen and filterable, long text wrapped.
 */
export async function answersToXlsx(answers: CanonicalAnswerView[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Verity';
  const sheet = wb.addWorksheet('Canonical answers', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = LIBRARY_EXPORT_COLUMNS.map((key) => ({ header: key, key, width: WIDTHS[key] ?? 14 }));
  sheet.getRow(1).font = { bold: true };
  for (const a of answers) {
    sheet.addRow({
      question: a.question,
      answer: a.answer,
      tags: a.tags.join('; '),
      status: a.status,
      confidence: a.confidence === null ? '' : String(a.confidence),
      source: a.source ?? '',
      owner: a.owner?.username ?? '',
      lastVerifiedAt: a.lastVerifiedAt ?? '',
      updatedAt: a.updatedAt,
    });
  }
  for (const key of ['question', 'answer']) sheet.getColumn(key).alignment = { wrapText: true, vertical: 'top' };
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: LIBRARY_EXPORT_COLUMNS.length } };
  return Buffer.from(await wb.xlsx.writeBuffer());
}
