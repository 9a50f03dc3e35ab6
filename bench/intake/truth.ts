import fs from 'node:fs';
import { z } from 'zod';

/** One sheet's ground truth; rows 1-based, columns as letters (see ../shared/questionnaires/README.md). */
const SheetTruth = z.object({
  headerRow: z.number().int().nullable(),
  questionColumn: z.string().nullable(),
  answerColumn: z.string().nullable(),
  commentsColumn: z.string().nullable(),
  idColumn: z.string().nullable(),
  answerChoiceColumns: z.array(z.string()).optional(),
  questionRows: z.array(z.number().int()),
  optionalRows: z.array(z.number().int()).default([]),
  placeholderRows: z.array(z.number().int()).default([]),
});
export type SheetTruth = z.infer<typeof SheetTruth>;

const FileTruth = z.object({
  format: z.enum(['xlsx', 'xls', 'csv', 'docx', 'json']),
  expect: z.enum(['questionnaire', 'refuse']),
  allSheets: z.array(z.object({ name: z.string(), hidden: z.boolean() })).default([]),
  sheets: z.record(z.string(), SheetTruth).nullable().default({}),
});
export type FileTruth = Omit<z.infer<typeof FileTruth>, 'sheets'> & { sheets: Record<string, SheetTruth> };

export function loadTruth(file: string): Record<string, FileTruth> {
  const parsed = z.object({ files: z.record(z.string(), FileTruth) }).parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  return Object.fromEntries(Object.entries(parsed.files).map(([name, t]) => [name, { ...t, sheets: t.sheets ?? {} }]));
}
