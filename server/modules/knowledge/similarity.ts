import { normalizeQuestion } from '../../../common/import/normalize';

/**
 * Word-level similarity of questions, for library hygiene: two questions "mean the same" when their content words
 * (question words and filler removed, endings folded, common security synonyms merged) largely coincide. Word sets
 * catch reworded questions ("Is data encrypted at rest?" / "Do you encrypt data at rest?") that character
 * trigrams miss, and are cheap enough to compare a 10,000-entry library in memory.
 */

const STOP_WORDS = new Set(
  (
    'a an the and or of to in on at for by with from as is are was were be been being do does did done have has ' +
    'had having you your yours we our ours us they their it its this that these those there which what who whom ' +
    'how when where why whether if any all each every some such can could should would will shall may might must ' +
    'please describe provide explain confirm state list indicate detail details organization organisation company ' +
    'vendor supplier service services currently also about into within than then so not no yes i me my he she'
  ).split(' '),
);

/** Phrases folded to one token so that acronyms and their spelled-out forms compare equal. */
const PHRASES: ReadonlyArray<[RegExp, string]> = [
  [/\b(multi factor|two factor|2 factor|2fa|tfa|mfa)( authentication)?\b/g, ' mfa '],
  [/\b(single sign on|sso)\b/g, ' sso '],
  [/\b(penetration test(s|ing)?|pen test(s|ing)?|pentest(s|ing)?)\b/g, ' pentest '],
  [/\b(business continuity( plan(s|ning)?)?|bcp)\b/g, ' bcp '],
  [/\b(disaster recovery|dr)\b/g, ' disasterrecovery '],
  [/\b(software development life ?cycle|sdlc)\b/g, ' sdlc '],
  [/\b(personally identifiable information|pii|personal data)\b/g, ' pii '],
  [/\b(role based access control|rbac)\b/g, ' rbac '],
  [/\b(data loss prevention|dlp)\b/g, ' dlp '],
  [/\b(at rest)\b/g, ' atrest '],
  [/\b(in transit)\b/g, ' intransit '],
];

/**
 * A light suffix folding (encrypts/encrypted/encryption → encrypt, require/required → requir); enough for
 * word-set comparison, not a linguistic stemmer.
 */
export function stem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  const folded = stripSuffix(word);
  return folded.length > 4 && folded.endsWith('e') ? folded.slice(0, -1) : folded;
}

function stripSuffix(word: string): string {
  const rules: ReadonlyArray<[RegExp, string]> = [
    [/ies$/, 'y'],
    [/(ations|ation|ions|ion)$/, ''],
    [/(ings|ing)$/, ''],
    [/(ements|ement|ments|ment)$/, ''],
    [/edly$/, ''],
    [/ed$/, ''],
    [/ly$/, ''],
    [/es$/, ''],
    [/s$/, ''],
  ];
  for (const [re, to] of rules) {
    if (re.test(word)) {
      const out = word.replace(re, to);
      return out.length >= 3 ? out : word;
    }
  }
  return word;
}

/** The set of content words of a question. */
export function contentWords(question: string): string[] {
  let text = ` ${normalizeQuestion(question)} `;
  for (const [re, token] of PHRASES) text = text.replace(re, token);
  const words = new Set<string>();
  for (const w of text.split(' ')) {
    if (w && !STOP_WORDS.has(w)) words.add(stem(w));
  }
  return [...words];
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/**
 * All pairs of items whose word sets have Jaccard similarity ≥ threshold, without comparing every pair: words are
 * ordered rarest first, and two sets that reach the threshold must share a word among each one's first few
 * ("prefix filtering", Bayardo et al., WWW 2007). Sets of one word only pair with an identical set.
 */
export function similarPairs(
  sets: ReadonlyArray<ReadonlyArray<string>>,
  threshold: number,
  limit = Number.POSITIVE_INFINITY,
): Array<{ a: number; b: number; similarity: number }> {
  const freq = new Map<string, number>();
  for (const s of sets) for (const w of s) freq.set(w, (freq.get(w) ?? 0) + 1);
  const ordered = sets.map((s) =>
    [...s].sort((x, y) => (freq.get(x) ?? 0) - (freq.get(y) ?? 0) || (x < y ? -1 : x > y ? 1 : 0)),
  );
  const asSets = sets.map((s) => new Set(s));
  // Visit smaller sets first so the size filter (|y| ≥ t·|x|) only needs to look back at smaller ones.
  const order = sets.map((_, i) => i).sort((x, y) => (ordered[x]?.length ?? 0) - (ordered[y]?.length ?? 0));
  const index = new Map<string, number[]>();
  const out: Array<{ a: number; b: number; similarity: number }> = [];
  for (const x of order) {
    const words = ordered[x] ?? [];
    if (words.length === 0) continue;
    const prefix = words.length - Math.ceil(threshold * words.length) + 1;
    const candidates = new Set<number>();
    for (const w of words.slice(0, prefix)) {
      for (const y of index.get(w) ?? []) candidates.add(y);
    }
    const mine = asSets[x] ?? new Set<string>();
    for (const y of candidates) {
      const theirs = asSets[y] ?? new Set<string>();
      if (theirs.size < threshold * mine.size) continue;
      const sim = jaccard(mine, theirs);
      if (sim >= threshold && (mine.size > 1 || sim === 1)) {
        out.push({ a: Math.min(x, y), b: Math.max(x, y), similarity: sim });
        if (out.length >= limit) return out;
      }
    }
    for (const w of words.slice(0, prefix)) {
      const list = index.get(w);
      if (list) list.push(x);
      else index.set(w, [x]);
    }
  }
  return out;
}

type Polarity = 'yes' | 'no' | 'na';

/** What a questionnaire answer opens with: yes, no or not applicable (null when it opens otherwise). */
export function polarity(answer: string): Polarity | null {
  const words = normalizeQuestion(answer).split(' ');
  const [first, second] = words;
  if (first === 'yes' || first === 'y' || first === 'true' || first === 'correct') return 'yes';
  if (first === 'n' && second === 'a') return 'na';
  if (first === 'na' || (first === 'not' && second === 'applicable')) return 'na';
  if (first === 'no' || first === 'n' || first === 'false') return 'no';
  return null;
}

/** The figures an answer states ("90 days", "AES-256", "1,000 users" → 90, 256, 1000). */
export function figures(answer: string): Set<string> {
  const found = answer.match(/\d[\d,]*(?:\.\d+)?/g) ?? [];
  return new Set(found.map((n) => n.replace(/,(?=\d{3}\b)/g, '').replace(/,$/, '')));
}

function isSubset(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** What disagreement() compares, computed once per answer when many pairs share answers. */
export type AnswerFacts = { polarity: Polarity | null; figures: Set<string> };

export function answerFacts(answer: string): AnswerFacts {
  return { polarity: polarity(answer), figures: figures(answer) };
}

/**
 * Why two answers to the same question disagree, as a sentence, or null when they do not: one says yes and the
 * other no, or they state different figures (one adding a figure the other lacks is not a disagreement).
 */
export function disagreement(a: string | AnswerFacts, b: string | AnswerFacts): string | null {
  const x = typeof a === 'string' ? answerFacts(a) : a;
  const y = typeof b === 'string' ? answerFacts(b) : b;
  const pa = x.polarity;
  const pb = y.polarity;
  if (pa && pb && pa !== pb) {
    const say = (p: Polarity) => (p === 'na' ? 'not applicable' : p);
    return `One answer says ${say(pa)}, the other says ${say(pb)}.`;
  }
  const fa = x.figures;
  const fb = y.figures;
  if (fa.size > 0 && fb.size > 0 && !isSubset(fa, fb) && !isSubset(fb, fa)) {
    const list = (s: Set<string>) => [...s].slice(0, 4).join(', ');
    return `The answers give different figures (${list(fa)} vs ${list(fb)}).`;
  }
  return null;
}
