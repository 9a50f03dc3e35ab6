import { z } from 'zod';

export const SuccessResponse = z.object({ success: z.literal(true), message: z.string().optional() });
export type SuccessResponse = z.infer<typeof SuccessResponse>;

export const IdParams = z.object({ id: z.uuid({ message: 'Invalid id' }) });
