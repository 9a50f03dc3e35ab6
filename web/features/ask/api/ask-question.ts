import { AnswerEntryView, type AskBody } from '../../../../common/schemas/qa';
import { api } from '../../../lib/api';

/**
 * One question, answered from the library or documents and recorded in the session. With `existingAnswer` it only
 * records an answer already shown (saving a chat); the server skips answers the session already holds.
 */
export function askQuestion(body: AskBody): Promise<AnswerEntryView> {
  return api.post('/api/qa/ask', AnswerEntryView, body, { errorFallback: 'Failed to process question' });
}
