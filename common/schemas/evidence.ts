import { z } from 'zod';
import { QUESTION_MAX_LENGTH } from '../constants';

/** What to look for: the question's own text when `q` is absent or blank. */
export const EvidenceQuery = z.object({
  q: z
    .string()
    .trim()
    .max(QUESTION_MAX_LENGTH, `The search must be at most ${QUESTION_MAX_LENGTH} characters`)
    .optional(),
});
export type EvidenceQuery = z.input<typeof EvidenceQuery>;

/** Library entries and document passages a person writing an answer may quote or cite, best first. */
export const EvidenceResponse = z.object({
  /** The words searched for. */
  query: z.string(),
  entries: z.array(
    z.object({
      id: z.string(),
      question: z.string(),
      answer: z.string(),
      status: z.enum(['approved', 'draft']),
      /** How well the entry matches the words, 0–100 (the engine's match score). */
      match: z.number().int(),
    }),
  ),
  passages: z.array(
    z.object({
      documentId: z.string(),
      name: z.string(),
      pageNumber: z.number().int().nullable(),
      section: z.string().nullable(),
      text: z.string(),
    }),
  ),
});
export type EvidenceResponse = z.infer<typeof EvidenceResponse>;
