import { z } from 'zod';
import { IMPORT_FORMATS } from '../../../common/import/types';

/** PRODUCT §5 import form: format one of csv, json, manual; content required. */
export const ImportFormValues = z.object({
  format: z.enum(IMPORT_FORMATS),
  content: z.string().refine((value) => value.trim() !== '', 'Content is required'),
});
export type ImportFormValues = z.infer<typeof ImportFormValues>;

export const EMPTY_IMPORT_FORM: ImportFormValues = { format: 'csv', content: '' };
