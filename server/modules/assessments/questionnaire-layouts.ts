import { and, desc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { type RememberedLayout, SheetMapping } from '../../../common/schemas/assessments';
import { questionnaireLayouts as ql, users } from '../../db/schema';
import { inTransaction } from '../../db/client';
import { notFound } from '../../errors';
import type { TenantCtx } from '../../context';
import { inOrganization } from '../../tenancy';
import { audit } from '../audit/service';
import { fittedMapping, intakeOf, type QuestionnaireFile } from '../../ingest/questionnaire/intake';
import { layoutFingerprint, sheetNamesKey } from '../../ingest/questionnaire/layout-fingerprint';
import { type Intake, type Mapping, QuestionnaireError } from '../../ingest/questionnaire/types';

// Remembered layouts of one workbook's sheet names looked at per file: one per correction that stays remembered.
const CANDIDATES = 20;
const StoredSheet = SheetMapping.omit({ lastRow: true }).extend({
  lastRowFromEnd: z.number().int().min(1).max(1_048_576).optional(),
});
type StoredSheet = z.infer<typeof StoredSheet>;
const StoredMapping = z.array(StoredSheet).min(1).max(100);

type Found = RememberedLayout & { mapping: Mapping[] };

/**
 * The organization's remembered layouts that describe this file, newest first: same sheet names, and under each
 * one's mapping the same header cells and id pattern as when it was saved (layout-fingerprint.ts).
 */
async function layoutsOfFile(ctx: TenantCtx, file: QuestionnaireFile): Promise<Found[]> {
  const rows = await ctx.db
    .select({
      id: ql.id,
      fingerprint: ql.fingerprint,
      mapping: ql.mapping,
      savedAt: ql.savedAt,
      savedById: users.id,
      savedByName: users.username,
    })
    .from(ql)
    .leftJoin(users, eq(users.id, ql.savedBy))
    .where(and(inOrganization(ql, ctx), eq(ql.sheetNamesKey, sheetNamesKey(file.sheets))))
    .orderBy(desc(ql.savedAt), desc(ql.id))
    .limit(CANDIDATES);
  return rows.flatMap((row) => {
    // A row written by an older version that no longer parses is simply not a match.
    const parsed = StoredMapping.safeParse(row.mapping);
    const mapping = parsed.success ? fromStored(file, parsed.data) : null;
    if (!mapping || layoutFingerprint(file.sheets, mapping) !== row.fingerprint) return [];
    return [
      {
        id: row.id,
        savedAt: row.savedAt.toISOString(),
        savedBy: row.savedById && row.savedByName ? { id: row.savedById, username: row.savedByName } : null,
        mapping,
      },
    ];
  });
}

/**
 * The questions of a file: with the mapping the user chose, else with the layout the organization remembered for
 * files of this layout, else as detected. A remembered layout that no longer fits the file (a column outside a
 * sheet, no questions under it) is passed over, never an error.
 */
export async function readWithLayout(
  ctx: TenantCtx,
  file: QuestionnaireFile,
  chosen: Mapping[] | undefined,
): Promise<{ intake: Intake; remembered: RememberedLayout | null }> {
  if (chosen && chosen.length > 0) return { intake: intakeOf(file, chosen), remembered: null };
  for (const { mapping, ...remembered } of await layoutsOfFile(ctx, file)) {
    const fitted = fittedMapping(file.sheets, mapping);
    if (!fitted) continue;
    try {
      return { intake: intakeOf(file, fitted), remembered };
    } catch (err) {
      if (!(err instanceof QuestionnaireError)) throw err;
    }
  }
  return { intake: intakeOf(file), remembered: null };
}

/** A mapping as compared with detection's: sheets in name order, the fields that say where things are. */
function comparable(mapping: readonly Mapping[]): string {
  return JSON.stringify(
    [...mapping]
      .sort((a, b) => (a.sheet < b.sheet ? -1 : a.sheet > b.sheet ? 1 : 0))
      .map((m) => [
        m.sheet,
        m.headerRow,
        m.questionColumn,
        m.answerColumn,
        m.commentsColumn,
        m.idColumn,
        m.firstRow ?? null,
        m.lastRow ?? null,
        (m.answerChoiceColumns ?? []).map((choice) => [choice.column, choice.label]),
      ]),
  );
}

/** The last row of a sheet with anything in it, or -1. */
function lastFilledRow(file: QuestionnaireFile, sheet: string): number {
  const rows = file.sheets.find((candidate) => candidate.name === sheet)?.rows ?? [];
  let last = rows.length - 1;
  while (last >= 0 && !(rows[last] ?? []).some((cell) => cell !== '')) last -= 1;
  return last;
}

/**
 * A mapping as remembered for the next files of a layout, which are longer or shorter than this one: the last
 * question row is kept as the number of filled rows under it (a sign-off block, a footer), none when it is the
 * sheet's last filled row.
 */
function toStored(file: QuestionnaireFile, mapping: Mapping): StoredSheet {
  if (mapping.lastRow === undefined) return mapping;
  const { lastRow, ...rest } = mapping;
  const fromEnd = lastFilledRow(file, mapping.sheet) - lastRow;
  return fromEnd > 0 ? { ...rest, lastRowFromEnd: fromEnd } : rest;
}

/** A remembered mapping with its last question row placed in this file; null when the file is too short for it. */
function fromStored(file: QuestionnaireFile, stored: readonly StoredSheet[]): Mapping[] | null {
  const mapping: Mapping[] = [];
  for (const { lastRowFromEnd, ...sheet } of stored) {
    if (lastRowFromEnd === undefined) {
      mapping.push(sheet);
      continue;
    }
    const lastRow = lastFilledRow(file, sheet.sheet) - lastRowFromEnd;
    if (lastRow < Math.max(0, sheet.headerRow + 1, sheet.firstRow ?? 0)) return null;
    mapping.push({ ...sheet, lastRow });
  }
  return mapping;
}

/**
 * After an import with a mapping the user chose: when it differs from what detection finds in the file, it is
 * remembered for the organization against the file's layout, replacing what was remembered for that layout; when
 * it is what detection finds, a layout remembered for the file is forgotten (the user put detection's columns back).
 */
export async function rememberCorrection(ctx: TenantCtx, file: QuestionnaireFile, applied: Intake): Promise<void> {
  const { mappings: mapping } = applied;
  if (mapping.length === 0) return;
  let detected: Mapping[] = [];
  try {
    detected = intakeOf(file).mappings;
  } catch (err) {
    // Detection finds nothing in the file: whatever the user chose is a correction.
    if (!(err instanceof QuestionnaireError)) throw err;
  }
  const corrected = comparable(mapping) !== comparable(detected);
  const replaced = (await layoutsOfFile(ctx, file)).map((found) => found.id);
  if (!corrected && replaced.length === 0) return;
  await inTransaction(ctx.db, async (tx) => {
    const txCtx = { ...ctx, db: tx };
    if (replaced.length > 0) {
      await tx.delete(ql).where(and(inOrganization(ql, ctx), inArray(ql.id, replaced)));
      for (const id of replaced) {
        await audit(txCtx, 'questionnaire_layout_forgotten', 'questionnaire_layout', id, { replaced: corrected });
      }
    }
    if (!corrected) return;
    const stored = mapping.map((m) => toStored(file, m));
    // Under the mapping as the next file will read it back, so this file's fingerprint is the one looked up.
    const values = {
      fingerprint: layoutFingerprint(file.sheets, fromStored(file, stored) ?? mapping),
      sheetNamesKey: sheetNamesKey(file.sheets),
      mapping: stored,
      savedBy: ctx.userId,
      savedAt: new Date(),
    };
    const [row] = await tx
      .insert(ql)
      .values({ organizationId: ctx.organizationId, ...values })
      .onConflictDoUpdate({ target: [ql.organizationId, ql.fingerprint], set: values })
      .returning({ id: ql.id });
    if (!row) throw new Error('insert returned no row');
    await audit(txCtx, 'questionnaire_layout_saved', 'questionnaire_layout', row.id, {
      sheets: mapping.map((m) => m.sheet),
    });
  });
}

/** Forgets one of the organization's remembered layouts; another organization's is "not found". */
export async function forgetLayout(ctx: TenantCtx, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .delete(ql)
      .where(and(inOrganization(ql, ctx), eq(ql.id, id)))
      .returning({ id: ql.id });
    if (!row) throw notFound('Remembered layout');
    await audit({ ...ctx, db: tx }, 'questionnaire_layout_forgotten', 'questionnaire_layout', id);
  });
}
