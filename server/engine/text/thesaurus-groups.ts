import { z } from 'zod';
import sections from '../data/thesaurus.json' with { type: 'json' };
import { parseDataFile } from '../data/validate';

/**
 * The security thesaurus's data (data/thesaurus.json, in sections): groups of phrases that questionnaires use
 * interchangeably, each rewritten to one canonical form. The rules the groups follow (the tests hold them to these):
 *
 * - Acronym ↔ spelled-out name, alternative spellings and near-universal paraphrases only. Distinct concepts that
 *   questionnaires ask about separately stay in separate groups even when they are often mentioned together:
 *   SOC 2 / ISO 27001 / PCI DSS, RTO / RPO, BCP / DR, at rest / in transit, SSO / SAML / OIDC (protocols are not
 *   the feature), RBAC / least privilege, pentest / vulnerability scan / bug bounty. Relating those is the
 *   taxonomy's job (a topic may list phrases from several groups), where agreement is scored, not assumed.
 * - The canonical form is a single token when the phrase is a name whose words mean little apart
 *   ("multi factor authentication" → mfa, "at rest" → atrest); it is a plain phrase when its words matter on
 *   their own ("uar" → "access review"), so that a paraphrase that splits the phrase still shares words with it.
 * - Phrases are matched on stems, so one phrase covers its inflections ("penetration test" also matches
 *   "penetration testing"). A word written `=word` must appear exactly as written: used where a stem is shared
 *   with an unrelated word (certification and certificate both stem to "certif"; application and applicable to
 *   "applic"; the plural "vendors" is a topic while the singular "vendor" usually means the respondent).
 * - Some groups only bridge stems the English stemmer leaves apart (classify/classification, retain/retention,
 *   respond/response), so that a verb and its noun compare equal.
 */
export type SynonymGroup = {
  /** What every phrase of the group is rewritten to: lower-case words of `[a-z0-9]`, one of `phrases`. */
  readonly canonical: string;
  /** Every spelling the group stands for, canonical form included. */
  readonly phrases: readonly string[];
  /** Why the group is drawn where it is, when that is not obvious. */
  readonly note?: string;
};

const GroupEntry = z
  .object({
    canonical: z.string().regex(/^[a-z0-9]+( [a-z0-9]+)*$/, 'a canonical form is lower-case words of [a-z0-9]'),
    phrases: z.array(z.string().trim().min(1)).min(1),
    note: z.string().trim().min(1).optional(),
  })
  .strict()
  .refine((group) => group.phrases.includes(group.canonical), {
    message: 'the canonical form must be one of the phrases',
    path: ['phrases'],
  });

const ThesaurusFile = z.array(
  z.object({ section: z.string().trim().min(1), groups: z.array(GroupEntry).min(1) }).strict(),
);

/** The thesaurus: acronyms, spellings and paraphrases, grouped by what they mean. */
export const SYNONYM_GROUPS: readonly SynonymGroup[] = parseDataFile(
  'server/engine/data/thesaurus.json',
  ThesaurusFile,
  sections,
).flatMap((section) => section.groups);
