import { z } from 'zod';
import sections from '../data/taxonomy.json' with { type: 'json' };
import { parseDataFile } from '../data/validate';

/**
 * The security topic taxonomy's data (data/taxonomy.json, in sections): what questionnaires (CAIQ v4, SIG, HECVAT,
 * VSAQ, customers' own) ask about, with the phrases they use for it.
 *
 * How phrases are read (see taxonomy.ts): each phrase goes through the thesaurus and loses its stop words, leaving
 * a few terms; a text mentions the phrase when it has all of them in one sentence, close together and in any order
 * ("encrypt at rest" also matches "data at rest is encrypted"), or — for a phrase written in double quotes — side
 * by side in that order. So phrases are kept short, and a question-style phrasing is only worth listing when it
 * adds a term combination the short phrases lack. A phrase of one common word makes its topic fire on any mention,
 * so single words are used only for names (soc2, siem) and for umbrella topics. Sibling topics that questionnaires
 * distinguish (SOC 2 / ISO 27001, RTO / RPO, at rest / in transit, backups / DR / BCP, pentest / scanning / bug
 * bounty) never share a phrase.
 */
export type Topic = {
  /** Stable identifier, snake_case. */
  readonly id: string;
  readonly label: string;
  /** How questionnaires phrase the topic; matched after the thesaurus (see the module comment). */
  readonly phrases: readonly string[];
  /** The broader topic this one refines; a match here also counts, more weakly, for the parent. */
  readonly parent?: string;
  /** Why the topic is drawn where it is (a phrase it leaves out, a name it absorbs), when that is not obvious. */
  readonly note?: string;
};

const TopicEntry = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(_[a-z0-9]+)*$/, 'an id is snake_case: lower-case letters, digits and _'),
    label: z.string().trim().min(1),
    parent: z.string().optional(),
    phrases: z.array(z.string().trim().min(1)).min(1),
    note: z.string().trim().min(1).optional(),
  })
  .strict();

const TaxonomyFile = z
  .array(z.object({ section: z.string().trim().min(1), topics: z.array(TopicEntry).min(1) }).strict())
  .superRefine((file, ctx) => {
    // Parents come first, so a parent's strength can be read off its children in one pass.
    const seen = new Set<string>();
    file.forEach((section, s) =>
      section.topics.forEach((topic, t) => {
        if (seen.has(topic.id))
          ctx.addIssue({ code: 'custom', path: [s, 'topics', t, 'id'], message: 'id used twice' });
        if (topic.parent !== undefined && !seen.has(topic.parent))
          ctx.addIssue({
            code: 'custom',
            path: [s, 'topics', t, 'parent'],
            message: `parent "${topic.parent}" is not a topic listed before this one`,
          });
        seen.add(topic.id);
      }),
    );
  });

/** Every topic, parents before their children. */
export const TOPICS: readonly Topic[] = parseDataFile(
  'server/engine/data/taxonomy.json',
  TaxonomyFile,
  sections,
).flatMap((section) => section.topics);
