import { z } from 'zod';
import type { CreateSessionBody } from '../../../../common/schemas/qa';
import { api } from '../../../lib/api';

const CreatedSession = z.object({ id: z.string() });

/** Starts a chat session; PRODUCT §11 gives this call the fixed message 'Failed to create session'. */
export async function createSession(body: z.input<typeof CreateSessionBody>): Promise<string> {
  return (await api.post('/api/qa/sessions', CreatedSession, body, { errorFallback: 'Failed to create session' })).id;
}
