import { SYNONYM_GROUPS, type SynonymGroup } from './thesaurus-groups';
import { americanSpelling, isStopWord, normalizeText, snowballStem, stem } from './words';

/**
 * The security thesaurus applied to text: acronyms, spellings and paraphrases rewritten to one canonical form
 * (longest phrase first), identically for questions, library entries and document chunks, so that "2FA",
 * "two-factor" and "multi-factor authentication" all become `mfa` before anything is compared.
 */

export { SYNONYM_GROUPS, type SynonymGroup };

/** A phrase word written `=word` in a group matches that exact word, not its stem. */
const EXACT = '=';

type TrieNode = { readonly next: Map<string, TrieNode>; group: number };

const newNode = (): TrieNode => ({ next: new Map(), group: -1 });

/**
 * The keys a phrase is matched by, one per word: the word's stem, or `=word` for an exact word. Exposed so that
 * tests (and tools) can see which phrases collide.
 */
export function matchKeys(phrase: string): string[] {
  const keys: string[] = [];
  for (const raw of phrase.trim().split(/\s+/)) {
    const exact = raw.startsWith(EXACT);
    for (const word of normalizeText(exact ? raw.slice(1) : raw).split(' ')) {
      if (word) keys.push(exact ? EXACT + word : stem(word));
    }
  }
  return keys;
}

/** The words of a phrase as text contains them (the exact-match marker removed). */
function phraseWords(phrase: string): string[] {
  const normal = normalizeText(phrase.replaceAll(EXACT, ' '));
  return normal ? normal.split(' ') : [];
}

const CANONICAL_WORDS: ReadonlyArray<readonly string[]> = SYNONYM_GROUPS.map((grp) => phraseWords(grp.canonical));

/** One trie over every phrase of every group, keyed by match key, so matching costs one walk per word. */
const TRIE: TrieNode = (() => {
  const root = newNode();
  SYNONYM_GROUPS.forEach((grp, index) => {
    for (const phrase of grp.phrases) {
      const keys = matchKeys(phrase);
      if (keys.length === 0) continue;
      let node = root;
      for (const key of keys) {
        let child = node.next.get(key);
        if (!child) {
          child = newNode();
          node.next.set(key, child);
        }
        node = child;
      }
      // The first group to claim a phrase keeps it; the tests forbid two groups claiming one.
      if (node.group < 0) node.group = index;
    }
  });
  return root;
})();

/** A run of the text: either a thesaurus phrase (group ≥ 0) with its canonical words, or one plain word. */
type Piece = { readonly words: readonly string[]; readonly original: readonly string[]; readonly group: number };

/** The longest phrase starting at word i: its end (exclusive) and group, or null. */
function longestMatch(
  words: readonly string[],
  stems: readonly string[],
  i: number,
): { end: number; group: number } | null {
  let best: { end: number; group: number } | null = null;
  const walk = (node: TrieNode, at: number): void => {
    if (node.group >= 0 && (!best || at > best.end)) best = { end: at, group: node.group };
    const word = words[at];
    const wordStem = stems[at];
    if (word === undefined || wordStem === undefined) return;
    const exact = node.next.get(EXACT + word);
    if (exact) walk(exact, at + 1);
    const byStem = node.next.get(wordStem);
    if (byStem) walk(byStem, at + 1);
  };
  walk(TRIE, i);
  return best;
}

function analyze(text: string): Piece[] {
  const normal = normalizeText(text);
  if (!normal) return [];
  const words = normal.split(' ');
  const stems = words.map(stem);
  const pieces: Piece[] = [];
  let i = 0;
  while (i < words.length) {
    const match = longestMatch(words, stems, i);
    if (match) {
      pieces.push({
        words: CANONICAL_WORDS[match.group] ?? [],
        original: words.slice(i, match.end),
        group: match.group,
      });
      i = match.end;
    } else {
      const word = words[i] ?? '';
      pieces.push({ words: [word], original: [word], group: -1 });
      i += 1;
    }
  }
  return pieces;
}

/**
 * The text in normal form with every thesaurus phrase rewritten to its group's canonical form: "Is 2FA required
 * for remote access?" → "is mfa required for remote access". Rewritten again until nothing changes, because a
 * canonical form can complete another group's phrase with the words after it ("infosec computer security incident
 * response team" → "security incident response team" → "incident response team"); so it is idempotent. The
 * ranker's `canonicalTerms` makes one pass: such chains are rare in real text, and a second pass on every
 * sentence would cost more than they matter.
 */
export function canonicalize(text: string): string {
  let current = analyze(text)
    .flatMap((p) => p.words)
    .join(' ');
  for (let pass = 0; pass < 4; pass++) {
    const next = analyze(current)
      .flatMap((p) => p.words)
      .join(' ');
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * The words the ranker compares, in order and with repeats (for term frequencies): the canonicalized text's
 * words, stop words dropped, stemmed. "Are data-at-rest encryption controls implemented?" →
 * [data, atrest, encrypt, control, implement].
 */
export function canonicalTerms(text: string): string[] {
  const terms: string[] = [];
  for (const piece of analyze(text)) {
    for (const word of piece.words) if (!isStopWord(word)) terms.push(stem(word));
  }
  return terms;
}

/**
 * The terms of a text the engine compares: stop words dropped, synonyms and acronyms folded to one canonical form
 * (2FA, two-factor, MFA → mfa), stemmed like PostgreSQL's english configuration. One function for questions,
 * entries and chunks, so both sides are always treated alike.
 */
export function termsOf(text: string): string[] {
  return [...new Set(canonicalTerms(text))];
}

/** The thesaurus groups a text mentions, in order of first mention. */
export function synonymGroupsIn(text: string): SynonymGroup[] {
  const seen = new Set<number>();
  const out: SynonymGroup[] = [];
  for (const piece of analyze(text)) {
    const grp = SYNONYM_GROUPS[piece.group];
    if (grp && !seen.has(piece.group)) {
      seen.add(piece.group);
      out.push(grp);
    }
  }
  return out;
}

/** A query after the thesaurus: what to compare and which other spellings to look for. */
export type QueryExpansion = {
  /** Distinct canonical terms (see canonicalTerms), in order of first mention. */
  tokens: string[];
  /** Every spelling (normal form) of every thesaurus group the text mentions, for phrase and trigram matching. */
  phrases: string[];
};

/** The query's distinct canonical terms and the other spellings of the thesaurus phrases it uses. */
export function expandQuery(text: string): QueryExpansion {
  const tokens = [...new Set(canonicalTerms(text))];
  const phrases = new Set<string>();
  for (const grp of synonymGroupsIn(text)) {
    for (const phrase of grp.phrases) {
      const normal = phraseWords(phrase).join(' ');
      if (normal) phrases.add(normal);
    }
  }
  return { tokens, phrases: [...phrases] };
}

/**
 * Stems of words too common in security text to be worth searching for on their own when they come from another
 * spelling of a phrase (the "management" of "key management system" when the question said "KMS").
 */
const GENERIC_STEMS: ReadonlySet<string> = new Set(
  (
    'secur data inform system manag control process plan program polici servic access user account time one two ' +
    'second step base level review test protect standard network code softwar app key risk assess report agreement ' +
    'act framework person health support team center public open privaci right request analysi offic cloud web ' +
    'card custom devic provid store secur model multi applic organ technolog strong environ interfac life cycl ' +
    'lifecycl develop detect prevent respons monitor integr oper event extend while whilst dure over across wire via bit'
  ).split(' '),
);

const SAFE_TERM = /^[a-z0-9]+$/;

/** The spellings a search may use for one piece of text: its own words, or for a thesaurus phrase its whole group. */
function alternativesOf(piece: Piece): string[] {
  if (piece.group < 0) return [...piece.original];
  // A multi-word spelling contributes only its distinctive words: "key" of "key management system" finds anything.
  const distinctive = (words: readonly string[]): readonly string[] =>
    words.length === 1 ? words : words.filter((w) => !GENERIC_STEMS.has(stem(w)));
  const out = [...(CANONICAL_WORDS[piece.group] ?? []), ...distinctive(piece.original)];
  for (const phrase of SYNONYM_GROUPS[piece.group]?.phrases ?? []) out.push(...distinctive(phraseWords(phrase)));
  return out;
}

/**
 * Keeps the words that can safely reach `to_tsquery`, one per PostgreSQL lexeme across all calls of `add`: only
 * `[a-z0-9]`, no stop word, no lone digit; a British spelling brings its American twin, whose lexeme differs.
 */
function lexemeCollector(): { add: (word: string) => string[] } {
  const lexemes = new Set<string>();
  return {
    add(word) {
      const kept: string[] = [];
      for (const w of new Set([word, americanSpelling(word)])) {
        if (!SAFE_TERM.test(w) || isStopWord(w) || /^\d$/.test(w)) continue;
        const lexeme = snowballStem(w);
        if (lexemes.has(lexeme)) continue;
        lexemes.add(lexeme);
        kept.push(w);
      }
      return kept;
    },
  };
}

/**
 * The terms to OR together in `to_tsquery('english', terms.join(' | '))`: first the text's own words, then the
 * canonical forms and distinctive words of the other spellings of every thesaurus phrase it uses (so a question
 * saying "2FA" also finds entries that say "multi-factor"), most useful first — a caller may keep a prefix. Each
 * term is a plain word of `[a-z0-9]` only — never an operator, quote or space — so joining them with " | " is
 * always a valid tsquery. Terms are surface words, not stems: PostgreSQL stems them itself exactly as it stemmed
 * the indexed text, whereas a stem is not always its own stem ("agreed" → "agre" → "agr"). One term per
 * PostgreSQL lexeme; stop words and lone digits are left out.
 */
export function tsqueryTerms(text: string): string[] {
  const collector = lexemeCollector();
  const pieces = analyze(text);
  const out: string[] = [];
  for (const piece of pieces) for (const word of piece.original) out.push(...collector.add(word));
  for (const piece of pieces) for (const word of alternativesOf(piece)) out.push(...collector.add(word));
  return out;
}

/**
 * The same terms grouped by the concept of the text they stand for, in text order: one group per content word,
 * and one per thesaurus phrase holding all its spellings. For AND-of-ORs queries —
 * `groups.map((g) => '(' + g.join(' | ') + ')').join(' & ')` — where "Is 2FA required for remote access?" must
 * match an entry that says "multi-factor" without demanding every spelling. Each term appears in one group only;
 * groups left empty (stop words) are dropped.
 */
export function tsqueryGroups(text: string): string[][] {
  const collector = lexemeCollector();
  const groups: string[][] = [];
  for (const piece of analyze(text)) {
    const group = alternativesOf(piece).flatMap((w) => collector.add(w));
    if (group.length > 0) groups.push(group);
  }
  return groups;
}
