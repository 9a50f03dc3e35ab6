/**
 * What kind of fact a question asks for ("how long" → a duration, "who" → a person or role…), so that among the
 * sentences that share the question's words the one that states such a fact wins. Classic question answering:
 * the words of "How long is CCTV footage retained?" also occur in "CCTV covers the entrances", but only
 * "footage is retained for 30 days" answers it.
 */
import { termsOf } from './thesaurus';

export type Intent = 'duration' | 'frequency' | 'count' | 'who' | 'name';

const NUMBER_WORD =
  '(?:\\d+(?:[.,]\\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|sixty|ninety|hundred)';
const UNIT = '(?:seconds?|minutes?|hours?|days?|business days?|weeks?|months?|years?|quarters?)';

const ASKS: Array<[Intent, RegExp]> = [
  [
    'duration',
    /\b(how long|how quickly|how soon|how fast|within what|what (?:is the )?(?:maximum |minimum )?(?:time|period|duration|timeframe|deadline)|retention period|maximum duration|how many (?:days|hours|months|years))\b/i,
  ],
  ['frequency', /\b(how often|how frequently|frequency|at what interval|how regularly)\b/i],
  [
    'count',
    /\b(how many|number of|what (?:is the )?(?:minimum|maximum) (?:\w+ )?(?:size|length|number)|cohort size|key lengths?)\b/i,
  ],
  ['who', /\b(who|which (?:team|role|person|group|function)|what (?:team|role))\b/i],
  [
    'name',
    /\b(which|what) (?:tool|product|software|service|provider|vendor|platform|bank|questionnaire|standard|framework|solution|one)\b|\bwhich one\b/i,
  ],
];

const STATES: Record<Intent, RegExp> = {
  duration: new RegExp(`\\b${NUMBER_WORD}[- ]${UNIT}\\b|\\bwithin ${NUMBER_WORD}\\b`, 'i'),
  frequency:
    /\b(annual(?:ly)?|yearly|quarterly|monthly|weekly|daily|hourly|continuous(?:ly)?|every (?:\w+ )?(?:day|week|month|quarter|year|six months|hours?)|once a|twice a|per (?:year|quarter|month)|each (?:year|quarter|month))\b/i,
  count: new RegExp(`\\b${NUMBER_WORD}\\b`, 'i'),
  // A named role or body, not any "team" or "owner": "data owners … who confirm" does not say who decides.
  who: /\b(CISO|CTO|CEO|CFO|COO|CIO|DPO|General Counsel|Chief [A-Z]\w+(?: [A-Z]\w+)* Officer|[A-Z]\w+ (?:Officer|Committee|Board|Team)|(?:security|GRC|legal|compliance|privacy|IT|operations|engineering|HR|people) team|Legal|Director|Head of \w+|Vice President|VP)\b/,
  // A capitalised word that does not start the sentence: a product, vendor or standard's name.
  name: /(?<=\S\s+)(?:[A-Z][a-z]*[A-Z0-9][\w-]*|[A-Z][a-z]+(?:\s[A-Z][\w-]+)+|\d?[A-Z][a-z]+\d*)\b/,
};

/** The kinds of fact the question asks for, in order of appearance; empty for a plain yes/no question. */
export function intentsOf(question: string): Intent[] {
  return ASKS.filter(([, re]) => re.test(question)).map(([intent]) => intent);
}

/**
 * The words of the question that ask for a kind of fact ("how long", "how often"): once a sentence states that
 * fact, another sentence using the word "long" adds nothing to the answer.
 */
export function intentPhrases(question: string): string[] {
  const phrases: string[] = [];
  for (const [, re] of ASKS) {
    const found = re.exec(question)?.[0];
    if (found) phrases.push(found);
  }
  return phrases;
}

/** The intents among `intents` that the sentence states a fact for. */
export function intentsStated(sentence: string, intents: readonly Intent[]): Intent[] {
  return intents.filter((i) => STATES[i].test(sentence));
}

const YES_NO = /^\s*(is|are|do|does|did|can|could|will|would|has|have|was|were|should|must|shall)\b/i;
// Words that flip or qualify what a sentence says; a sentence using one the question does not is not a plain yes.
const POLARITY =
  /\b(not|never|no|none|cannot|can't|don't|doesn't|isn't|aren't|won't|prohibit\w*|forbid\w*|disallow\w*|disabl\w*|block\w*|den(?:y|ied|ies)|without|except|unless|only)\b/gi;

export function isYesNoQuestion(question: string): boolean {
  return YES_NO.test(question) && intentsOf(question).length === 0;
}

// Plain negations: a sentence whose only polarity words (beyond the question's) are these says "no".
const NEGATION =
  /^(not|never|no|none|cannot|can't|don't|doesn't|isn't|aren't|won't|prohibit\w*|forbid\w*|disallow\w*)$/;

/**
 * "Yes. " or "No. " when a yes/no question is answered plainly by a sentence that covers it well: "Yes" when the
 * sentence uses no negating or restricting word the question does not; "No" when the only such words are plain
 * negations (not, never, prohibited…). A restriction (only, unless, except, without…) or a mix keeps the evidence
 * unprefixed: a wrong "Yes" or "No" is worse than none. So is a sentence about someone else (aboutThirdParty).
 */
export function yesOpening(question: string, sentence: string, coverage: number): string {
  if (!isYesNoQuestion(question) || coverage < 0.8) return '';
  // "AWS maintains ISO 27001 certification" answers nothing about the organization's own certification.
  if (aboutThirdParty(question, sentence)) return '';
  const asked = new Set((question.match(POLARITY) ?? []).map((w) => w.toLowerCase()));
  const extra = (sentence.match(POLARITY) ?? []).map((w) => w.toLowerCase()).filter((w) => !asked.has(w));
  if (extra.length === 0) return 'Yes. ';
  return asked.size === 0 && extra.every((w) => NEGATION.test(w)) ? 'No. ' : '';
}

/**
 * Who a policy sentence may be about other than the organization itself: its cloud and hosting providers, data
 * centres, vendors, customers. Capitalised entries are names, the party wherever they stand except inside a
 * product's name ("AWS KMS keys", "Amazon S3 buckets" belong to the organization's account); lower-case ones are
 * common nouns, the party only where they head their phrase ("the vendor holds", "vendors must"), not where they
 * describe something else ("vendor access", "customer data"). Plurals are listed as written.
 */
export const THIRD_PARTY_SUBJECTS: readonly string[] = [
  'AWS',
  'Amazon Web Services',
  'Amazon',
  'Azure',
  'Microsoft Azure',
  'Microsoft',
  'Google Cloud',
  'Google Cloud Platform',
  'GCP',
  'Google',
  'Oracle Cloud',
  'IBM Cloud',
  'DigitalOcean',
  'Cloudflare',
  'Heroku',
  'Rackspace',
  'Equinix',
  'Salesforce',
  'Stripe',
  'cloud provider',
  'cloud providers',
  'cloud service provider',
  'cloud service providers',
  'hosting provider',
  'hosting providers',
  'service provider',
  'service providers',
  'infrastructure provider',
  'infrastructure providers',
  'provider',
  'providers',
  'data center',
  'data centers',
  'data centre',
  'data centres',
  'colocation facility',
  'colocation facilities',
  'sub-processor',
  'sub-processors',
  'subprocessor',
  'subprocessors',
  'vendor',
  'vendors',
  'supplier',
  'suppliers',
  'third party',
  'third parties',
  'contractor',
  'contractors',
  'partner',
  'partners',
  'customer',
  'customers',
  'client',
  'clients',
];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const normalized = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
const isName = (p: string) => /\p{Lu}/u.test(p);
const isPlural = (p: string) => !isName(p) && /[^s]s$/.test(p);
const NAMES = new Set(THIRD_PARTY_SUBJECTS.filter(isName).map(normalized));
const PLURALS = new Set(THIRD_PARTY_SUBJECTS.filter(isPlural).map(normalized));
/** One key per party, plural or not ("vendors" → "vendor"), so that the question's party matches the sentence's. */
const PARTY_KEYS = new Map(
  THIRD_PARTY_SUBJECTS.map((p) => {
    const n = normalized(p);
    return [n, isPlural(p) ? n.replace(/ies$/, 'y').replace(/s$/, '') : n] as const;
  }),
);
const partyKey = (match: string) => PARTY_KEYS.get(normalized(match)) ?? normalized(match);
// Longest first, so "Amazon Web Services" is one party and not "Amazon" followed by two words.
const PARTY = new RegExp(
  `(?<![\\p{L}\\p{N}-])(?:${[...THIRD_PARTY_SUBJECTS]
    .sort((a, b) => b.length - a.length)
    .map((p) => escapeRe(p).replace(/ /g, '\\s+'))
    .join('|')})(?![\\p{L}\\p{N}-])`,
  'giu',
);
// A standard after a name is the name's certification ("AWS ISO 27001 certificate"), not part of a product name.
const STANDARD = /^(?:ISO|IEC|SOC|PCI|HIPAA|HITRUST|FedRAMP|CSA|NIST|GDPR|SOX|C5)$/;
// After a common noun, these show it heads its phrase: a verb or a function word follows.
const HEAD_FOLLOWER =
  /^(?:is|are|was|were|be|been|has|have|had|will|would|shall|should|must|may|might|can|could|cannot|does|do|did|also|only|never|not|always|and|or|that|which|who|whose|itself|themselves|to|of|in|on|at|for|with|by|from|under|as)$/i;
const PLURAL_NOUN_FOLLOWER = /^(?:are|must|will|should|shall|may|can|have|were|need|require)$/i;

type Mention = { start: number; end: number; key: string };

/** Where the sentence names a third party as a party (not as a modifier: "customer data"). */
function partyMentions(text: string): Mention[] {
  const found: Mention[] = [];
  for (const m of text.matchAll(PARTY)) {
    const start = m.index;
    const end = start + m[0].length;
    const entry = normalized(m[0]);
    const key = partyKey(entry);
    const rest = text.slice(end);
    if (/^['’]s?(?![\p{L}])/u.test(rest)) {
      // Possessive: "AWS's data centres", "the vendor's SOC 2 report" are the party's.
      found.push({ start, end, key });
      continue;
    }
    const [, next = '', after = ''] =
      /^\s+([\p{L}\p{N}][\p{L}\p{N}'’-]*)(?:\s+([\p{L}\p{N}][\p{L}\p{N}'’-]*))?/u.exec(rest) ?? [];
    if (/^[\p{Lu}\p{N}]/u.test(next) && !STANDARD.test(next)) continue; // a product: "AWS KMS", "Amazon S3"
    if (NAMES.has(entry) || PLURALS.has(entry) || next === '' || HEAD_FOLLOWER.test(next)) {
      found.push({ start, end, key });
      continue;
    }
    // "The provider maintains ISO 27001" (a verb) but "client certificates are rotated" (a plural noun).
    if (/[^s]s$/i.test(next) && !PLURAL_NOUN_FOLLOWER.test(after)) found.push({ start, end, key });
  }
  return found;
}

const ORGANIZATION = /\b(?:we|the (?:company|organi[sz]ation)|our (?:company|organi[sz]ation|firm|business))\b/gi;
// Where a sentence holds two claims, each with its own subject ("AWS hosts the platform, and we are certified").
const CLAUSE_BREAK = /;\s+|,\s+(?:and|but|while|whereas|although|however)\s+|\s+(?:but|whereas|while)\s+/gi;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu;

/**
 * True when the sentence's claim is about a third party (THIRD_PARTY_SUBJECTS) rather than the organization: the
 * clause holding most of the question's words names such a party before its claim ("AWS maintains ISO 27001
 * certification", "we host on AWS, which is ISO 27001 certified") with no "we" after it, or as the agent ("…is
 * maintained by our hosting provider"). A party the question itself names ("Do your vendors…?") does not count.
 */
export function aboutThirdParty(question: string, sentence: string): boolean {
  return thirdPartyJudge(question)(sentence);
}

/** aboutThirdParty for one question and many sentences: the question is read once, each sentence once. */
export function thirdPartyJudge(question: string): (sentence: string) => boolean {
  const asked = new Set([...question.matchAll(PARTY)].map((m) => partyKey(m[0])));
  let qTerms: Set<string> | undefined;
  const judged = new Map<string, boolean>();
  return (sentence) => {
    let verdict = judged.get(sentence);
    if (verdict === undefined) {
      const mentions = partyMentions(sentence).filter((m) => !asked.has(m.key));
      qTerms ??= new Set(termsOf(question));
      verdict = mentions.length > 0 && claimIsTheirs(sentence, mentions, qTerms);
      judged.set(sentence, verdict);
    }
    return verdict;
  };
}

function claimIsTheirs(sentence: string, mentions: readonly Mention[], qTerms: ReadonlySet<string>): boolean {
  const clause = claimClause(sentence, qTerms);
  const inClause = mentions.filter((m) => m.start >= clause.start && m.end <= clause.end);
  if (inClause.length === 0) return false;
  // The agent of a passive claim: "…is maintained by our hosting provider".
  if (inClause.some((m) => /\bby\s+(?:(?:the|our|its|their|an?)\s+)?$/i.test(sentence.slice(clause.start, m.start))))
    return true;
  const claimAt = claimStart(sentence, clause, inClause, qTerms);
  const lastParty = inClause.filter((m) => m.start < claimAt).at(-1);
  if (!lastParty) return false;
  // "AWS hosts the platform and we are certified": a "we" after the party takes the claim back.
  let lastOrganization = -1;
  for (const m of sentence.slice(clause.start, claimAt).matchAll(ORGANIZATION))
    lastOrganization = clause.start + m.index;
  return lastOrganization < lastParty.start;
}

/** The clause of the sentence holding the most of the question's terms (the first of equals). */
function claimClause(sentence: string, qTerms: ReadonlySet<string>): { start: number; end: number } {
  const clauses: Array<{ start: number; end: number }> = [];
  let start = 0;
  for (const m of sentence.matchAll(CLAUSE_BREAK)) {
    clauses.push({ start, end: m.index });
    start = m.index + m[0].length;
  }
  clauses.push({ start, end: sentence.length });
  let best = { start: 0, end: sentence.length };
  let bestCount = -1;
  for (const c of clauses) {
    const count = termsOf(sentence.slice(c.start, c.end)).filter((t) => qTerms.has(t)).length;
    if (count > bestCount) {
      best = c;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Where the claim starts: the first word of the clause, outside the party names, at which the clause so far holds
 * one of the question's terms. Prefixes rather than single words, so that phrases ("ISO 27001", "at rest") count.
 */
function claimStart(
  sentence: string,
  clause: { start: number; end: number },
  mentions: readonly Mention[],
  qTerms: ReadonlySet<string>,
): number {
  let masked = sentence.slice(0, clause.end);
  for (const m of mentions) masked = masked.slice(0, m.start) + ' '.repeat(m.end - m.start) + masked.slice(m.end);
  masked = ' '.repeat(clause.start) + masked.slice(clause.start);
  for (const w of masked.matchAll(WORD)) {
    const end = w.index + w[0].length;
    if (termsOf(masked.slice(clause.start, end)).some((t) => qTerms.has(t))) return w.index;
  }
  return clause.end;
}
