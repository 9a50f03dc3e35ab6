import { z } from 'zod';

/** DESIGN §5: the body of every non-OK API response. */
export const ApiError = z.object({
  error: z.string(),
  code: z.string(),
  details: z.unknown().optional(),
});
export type ApiError = z.infer<typeof ApiError>;

export const SuccessResponse = z.object({ success: z.literal(true), message: z.string().optional() });
export type SuccessResponse = z.infer<typeof SuccessResponse>;

export const IdParams = z.object({ id: z.uuid({ message: 'Invalid id' }) });
export const Paging = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
