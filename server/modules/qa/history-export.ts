import type { z } from 'zod';
import { toCsv } from '../../../common/import/csv-export';
import type { HistoryFilter } from '../../../common/schemas/qa';
import type { TenantCtx } from '../../context';
import { datedName, plainAttachment, type Download } from '../../download';
import { listHistory } from './service';

const COLUMNS = ['createdAt', 'user', 'question', 'answer', 'answerType', 'confidence', 'sources'];

/** The chat history the caller may see, filtered as on screen, as a dated CSV file. */
export async function exportHistory(ctx: TenantCtx, filter: z.output<typeof HistoryFilter>): Promise<Download> {
  const { entries } = await listHistory(ctx, { ...filter, limit: 100_000, offset: 0 });
  const csv = toCsv([
    COLUMNS,
    ...entries.map((e) => [
      e.createdAt,
      e.username ?? '',
      e.question,
      e.answer,
      e.answerType,
      String(e.confidence),
      e.sources
        .map((s) =>
          s.type === 'library'
            ? `Library: ${s.question ?? ''}`
            : `${s.name ?? ''}${s.pageNumber ? ` p.${s.pageNumber}` : ''}`,
        )
        .join('; '),
    ]),
  ]);
  return {
    contentType: 'text/csv; charset=utf-8',
    disposition: plainAttachment(datedName('chat_history', 'csv')),
    cacheControl: 'no-store',
    body: csv,
  };
}
