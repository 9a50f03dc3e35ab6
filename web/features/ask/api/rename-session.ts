import { z } from 'zod';
import { api } from '../../../lib/api';

const RenamedSession = z.object({ id: z.string() });

/** Gives a session its title in Chat History (PRODUCT: the first question, cut at 50 characters). */
export async function renameSession(sessionId: string, title: string): Promise<void> {
  await api.put(`/api/qa/sessions/${encodeURIComponent(sessionId)}`, RenamedSession, { title });
}
