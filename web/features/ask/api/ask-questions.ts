import { z } from 'zod';
import { AnswerEntryView, type AskManyBody } from '../../../../common/schemas/qa';
import { api } from '../../../lib/api';

const Entries = z.object({ entries: z.array(AnswerEntryView) });

/** Several questions in one call, answered in order; the server stores all of them or none. */
export async function askQuestions(body: AskManyBody): Promise<AnswerEntryView[]> {
  return (await api.post('/api/qa/entries', Entries, body, { errorFallback: 'Failed to process questions' })).entries;
}
