import { and, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { canonicalAnswers as ca } from '../../db/schema';
import { inTransaction } from '../../db/client';
import { badRequest } from '../../errors';
import { audit } from '../audit/service';
import { normalizeQuestion } from '../../../common/import/normalize';
import type { ImportBody, ImportResult } from '../../../common/schemas/knowledge';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';

type ValidImport = z.output<typeof ImportBody>;

// Rows per INSERT: far below PostgreSQL's 65,535 bind parameters (13 per row), big enough to be quick.
const INSERT_CHUNK = 500;
const LOOKUP_CHUNK = 2000;

/**
 * Imports entries all or nothing, in one transaction. A question already in the workspace (same text after
 * folding case, spacing and punctuation), or repeated earlier in the same import, is not imported again but
 * reported. The unique index on (workspace, folded question) settles races between two imports. A dry run
 * answers the same without saving, so the preview can show duplicates before anything is imported.
 */
export async function importEntries(ctx: TenantCtx, body: ValidImport): Promise<ImportResult> {
  const keyed = body.entries.map((entry, index) => {
    const key = normalizeQuestion(entry.question);
    if (!key) throw badRequest(`Entry ${index + 1}: Question must contain letters or numbers`);
    return { entry, index, key };
  });

  return inTransaction(ctx.db, async (tx) => {
    const t = { ...ctx, db: tx };
    const existing = new Map<string, string>();
    const keys = [...new Set(keyed.map((k) => k.key))];
    for (let i = 0; i < keys.length; i += LOOKUP_CHUNK) {
      const rows = await tx
        .select({ id: ca.id, key: ca.questionNorm })
        .from(ca)
        .where(and(inTenant(ca, t), inArray(ca.questionNorm, keys.slice(i, i + LOOKUP_CHUNK))));
      for (const r of rows) existing.set(r.key, r.id);
    }

    const duplicates: ImportResult['duplicates'] = [];
    const seen = new Set<string>();
    const fresh: typeof keyed = [];
    for (const k of keyed) {
      if (existing.has(k.key) || seen.has(k.key)) {
        duplicates.push({ index: k.index, question: k.entry.question, existingId: existing.get(k.key) ?? null });
      } else {
        seen.add(k.key);
        fresh.push(k);
      }
    }

    // The preview's check: the same verdicts as a real import, and nothing written (not even the audit line).
    if (body.dryRun) return { imported: fresh.length, skipped: duplicates.length, duplicates };

    const now = new Date();
    const approved = body.status === 'approved';
    let imported = 0;
    for (let i = 0; i < fresh.length; i += INSERT_CHUNK) {
      const chunk = fresh.slice(i, i + INSERT_CHUNK);
      const inserted = await tx
        .insert(ca)
        .values(
          chunk.map(({ entry, key }) => ({
            organizationId: ctx.organizationId,
            workspaceId: ctx.workspaceId,
            question: entry.question,
            questionNorm: key,
            answer: entry.answer,
            tags: entry.tags,
            status: body.status,
            confidence: entry.confidence ?? null,
            source: entry.source ?? null,
            ownerId: ctx.userId,
            createdBy: ctx.userId,
            lastVerifiedAt: approved ? now : null,
            lastVerifiedBy: approved ? ctx.userId : null,
          })),
        )
        // Another import committed the same question meanwhile: count it as a duplicate, don't fail.
        .onConflictDoNothing({ target: [ca.workspaceId, ca.questionNorm] })
        .returning({ key: ca.questionNorm });
      const landed = new Set(inserted.map((r) => r.key));
      imported += landed.size;
      for (const { entry, index, key } of chunk) {
        if (!landed.has(key)) duplicates.push({ index, question: entry.question, existingId: null });
      }
    }
    duplicates.sort((a, b) => a.index - b.index);
    await audit(t, 'canonical_answers_imported', 'canonical_answer', null, {
      imported,
      duplicates: duplicates.length,
      status: body.status,
    });
    return { imported, skipped: duplicates.length, duplicates };
  });
}
