/**
 * Text normalisation for the answer engine: one normal form, one tokenizer, one stemmer and one stop-word list,
 * shared by questions, library entries and document chunks so that both sides of every comparison are cut the
 * same way.
 */

/**
 * The normal form every comparison starts from: NFKC (full-width letters and ligatures become plain ones), lower
 * case, Latin accents dropped, curly quotes and every kind of dash unified, `&` → "and", `%` → "percent",
 * negative contractions spelled out ("don't" → "do not", so the "not" survives), thousands separators removed
 * (1,000 → 1000), and every other non-letter, non-digit character turned into a space. A dot survives only
 * between digits, so version numbers stay one token ("tls 1.2", "99.9 percent"); a version glued to letters is
 * split off ("tlsv1.2" → "tlsv 1.2"). Hyphens separate words: "aes-256" → "aes 256", "multi-factor" →
 * "multi factor" — the thesaurus lists the joined and split spellings where they matter.
 */
export function normalizeText(text: string): string {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      // Accents only on Latin letters: marks are letters' vowels in other scripts and must stay.
      .normalize('NFD')
      .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
      .normalize('NFC')
      .replace(/[\u2018\u2019\u201A\u201B\u2032\u0060\u00B4]/g, "'")
      .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
      .replace(/[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g, '-')
      .replace(/&/g, ' and ')
      .replace(/(\d)\s*%/g, '$1 percent ')
      .replace(/\bwon't\b/g, 'will not')
      .replace(/\bcan't\b/g, 'can not')
      .replace(/\bshan't\b/g, 'shall not')
      .replace(/n't\b/g, ' not')
      .replace(/'(s|re|ve|ll|d|m)\b/g, (_, s: string) => CONTRACTIONS.get(s) ?? ' ')
      .replace(/(\d),(?=\d{3}\b)/g, '$1')
      .replace(/(\p{L})(\d+\.\d)/gu, '$1 $2')
      .replace(/[^\p{L}\p{N}.]+/gu, ' ')
      // A dot is kept only with a digit on both sides (1.2, 99.9), never as sentence or abbreviation punctuation.
      .replace(/\.+(?!\d)|(?<!\d)\.+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

const CONTRACTIONS: ReadonlyMap<string, string> = mapOf({
  s: '',
  re: ' are',
  ve: ' have',
  ll: ' will',
  d: ' would',
  m: ' am',
});

// A Map, not an object literal, so that words such as "constructor" never find Object.prototype's members.
function mapOf(entries: Record<string, string>): ReadonlyMap<string, string> {
  return new Map(Object.entries(entries));
}

/** The words of a text in its normal form, in order, stop words included (phrases such as "at rest" need them). */
export function tokenize(text: string): string[] {
  const normal = normalizeText(text);
  return normal ? normal.split(' ') : [];
}

/**
 * Words that carry no meaning in a questionnaire: grammar, the question's framing ("please describe", "does your
 * organization") and the respondent's names for itself ("vendor", "company"). Words that change what a control
 * means are deliberately absent: not/no/never/none/without, all/every/each/only, at least/within/before/after,
 * and every number.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or nor of to in on at for by with from as into onto upon about than then so such ' +
    'is are was were be been being am do does did done doing have has had having ' +
    'i me my mine we our ours us you your yours yourself yourselves he him his she her it its they them their ' +
    'theirs this that these those there here which what who whom whose how when where why whether if ' +
    'can could should would will shall may might must ' +
    'please describe describes explain confirm confirms indicate specify outline list detail details ' +
    'provide provides provided elaborate briefly summarize summarise ' +
    'organization organisations organisation organizations company companies vendor supplier firm ' +
    'respondent institution ' +
    'also any currently current yes just very etc eg ie e g x ' +
    'use uses used using utilize utilizes ensure ensures'
  ).split(' '),
);

/** True when a normalised word is a stop word. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

// ---------------------------------------------------------------------------------------------------------------
// Stemming
// ---------------------------------------------------------------------------------------------------------------

/**
 * The English (Porter2 / Snowball) stem of one normalised word — the algorithm behind PostgreSQL's `english`
 * text-search configuration, so stems agree with what the full-text index holds (encrypted / encryption /
 * encrypts → encrypt; policies → polici). Two deliberate differences: British -ise/-isation spellings and a few
 * other British forms are folded to American first (organisation and organization must compare equal; PostgreSQL
 * keeps them apart), and, like PostgreSQL's `english` configuration (which sends words with digits to the
 * `simple` dictionary), words containing a digit are returned unchanged.
 */
export function stem(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  const out = snowballStem(americanSpelling(word));
  if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
  stemCache.set(word, out);
  return out;
}

// Questionnaire vocabulary is small and repetitive; a bounded cache makes stemming a map lookup almost always.
const STEM_CACHE_LIMIT = 50_000;
const stemCache = new Map<string, string>();

/** Roots whose British -is- spellings (organise, anonymisation, authorised) fold to -iz-. */
const BRITISH_IZE_ROOTS = new Set(
  (
    'author organ central minim maxim anonym pseudonym sanit priorit recogn util categor standard custom optim ' +
    'final normal visual synchron token digit memor summar real special internal external capital initial local ' +
    'global character stabil mobil virtual modern harmon legal emphas familiar formal industrial personal ' +
    'container decentral revital monet jeopard item apolog criminal neutral rational commercial comput penal'
  ).split(' '),
);

const BRITISH_WORDS: ReadonlyMap<string, string> = mapOf({
  behaviour: 'behavior',
  behaviours: 'behaviors',
  behavioural: 'behavioral',
  licence: 'license',
  licences: 'licenses',
  defence: 'defense',
  defences: 'defenses',
  offence: 'offense',
  programme: 'program',
  programmes: 'programs',
  labelled: 'labeled',
  labelling: 'labeling',
  modelled: 'modeled',
  modelling: 'modeling',
  cancelled: 'canceled',
  cancelling: 'canceling',
  travelled: 'traveled',
  enrolment: 'enrollment',
  enrol: 'enroll',
  fulfil: 'fulfill',
  fulfilment: 'fulfillment',
  judgement: 'judgment',
  catalogue: 'catalog',
  catalogues: 'catalogs',
  centre: 'center',
  centres: 'centers',
  colour: 'color',
  favour: 'favor',
  honour: 'honor',
  analyse: 'analyze',
  analysed: 'analyzed',
  analyses: 'analyzes',
  analysing: 'analyzing',
  whilst: 'while',
});

/**
 * Exactly PostgreSQL's `english` lexeme for one normalised word (no British folding): what `to_tsvector` and
 * `to_tsquery` make of it. Words with digits are left alone, as PostgreSQL's `simple` dictionary does.
 */
export function snowballStem(word: string): string {
  return /\d/.test(word) || word.length <= 2 ? word : porter2(word);
}

/** The American spelling of a British -ise/-isation word or a common British form; other words unchanged. */
export function americanSpelling(word: string): string {
  const mapped = BRITISH_WORDS.get(word);
  if (mapped) return mapped;
  const m = /^([a-z]+?)is(e|es|ed|ing|ation|ations|ational|er|ers)$/.exec(word);
  if (m?.[1] && BRITISH_IZE_ROOTS.has(m[1])) return `${m[1]}iz${m[2] ?? ''}`;
  return word;
}

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);
const DOUBLES = ['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt'];
const LI_ENDINGS = new Set(['c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't']);

const EXCEPTIONS: ReadonlyMap<string, string> = mapOf({
  skis: 'ski',
  skies: 'sky',
  dying: 'die',
  lying: 'lie',
  tying: 'tie',
  idly: 'idl',
  gently: 'gentl',
  ugly: 'ugli',
  early: 'earli',
  only: 'onli',
  singly: 'singl',
  sky: 'sky',
  news: 'news',
  howe: 'howe',
  atlas: 'atlas',
  cosmos: 'cosmos',
  bias: 'bias',
  andes: 'andes',
});

const AFTER_1A_EXCEPTIONS = new Set([
  'inning',
  'outing',
  'canning',
  'herring',
  'earring',
  'proceed',
  'exceed',
  'succeed',
]);

/** Prefixes whose R1 starts right after them (Snowball's exceptional R1 rule). */
const R1_PREFIXES = ['gener', 'commun', 'arsen'];

const STEP2: ReadonlyArray<[string, string]> = [
  ['ization', 'ize'],
  ['ational', 'ate'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['iveness', 'ive'],
  ['tional', 'tion'],
  ['biliti', 'ble'],
  ['lessli', 'less'],
  ['entli', 'ent'],
  ['ation', 'ate'],
  ['alism', 'al'],
  ['aliti', 'al'],
  ['ousli', 'ous'],
  ['iviti', 'ive'],
  ['fulli', 'ful'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['abli', 'able'],
  ['izer', 'ize'],
  ['ator', 'ate'],
  ['alli', 'al'],
  ['bli', 'ble'],
  ['ogi', 'og'],
  ['li', ''],
];

const STEP3: ReadonlyArray<[string, string]> = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['alize', 'al'],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ative', ''],
  ['ical', 'ic'],
  ['ness', ''],
  ['ful', ''],
];

const STEP4 = [
  'ement',
  'ance',
  'ence',
  'able',
  'ible',
  'ment',
  'ant',
  'ent',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'ion',
  'al',
  'er',
  'ic',
];

function isVowel(ch: string | undefined): boolean {
  return ch !== undefined && VOWELS.has(ch);
}

/** Index just after the first non-vowel that follows a vowel, at or after `from` (word length when none). */
function regionAfter(w: string, from: number): number {
  for (let i = from + 1; i < w.length; i += 1) {
    if (!isVowel(w[i]) && isVowel(w[i - 1])) return i + 1;
  }
  return w.length;
}

/** Snowball's "short syllable" ending at index `end` (exclusive). */
function endsShortSyllable(w: string, end: number): boolean {
  const c = w[end - 1];
  const v = w[end - 2];
  if (end === 2) return isVowel(v) && !isVowel(c);
  const before = w[end - 3];
  return isVowel(v) && !isVowel(c) && c !== 'w' && c !== 'x' && c !== 'Y' && !isVowel(before);
}

function longestSuffix<T extends string | [string, string]>(w: string, list: readonly T[]): T | undefined {
  let best: T | undefined;
  let bestLen = 0;
  for (const entry of list) {
    const suffix = typeof entry === 'string' ? entry : entry[0];
    if (suffix.length > bestLen && w.endsWith(suffix)) {
      best = entry;
      bestLen = suffix.length;
    }
  }
  return best;
}

function porter2(input: string): string {
  const exception = EXCEPTIONS.get(input);
  if (exception) return exception;
  let w = input.startsWith("'") ? input.slice(1) : input;
  // Prelude: a consonant y is marked Y so that it is not counted as a vowel.
  if (w.startsWith('y')) w = `Y${w.slice(1)}`;
  w = w.replace(/([aeiouy])y/g, '$1Y');

  const prefix = R1_PREFIXES.find((p) => w.startsWith(p));
  const r1 = prefix ? prefix.length : regionAfter(w, 0);
  const r2 = regionAfter(w, r1);

  // Step 1a
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ied') || w.endsWith('ies')) w = w.length > 4 ? w.slice(0, -2) : w.slice(0, -1);
  else if (w.endsWith('us') || w.endsWith('ss')) {
    // unchanged
  } else if (w.endsWith('s')) {
    const stemPart = w.slice(0, -2);
    if (/[aeiouy]/.test(stemPart)) w = w.slice(0, -1);
  }
  if (AFTER_1A_EXCEPTIONS.has(w)) return w;

  // Step 1b
  const s1b = longestSuffix(w, ['eedly', 'ingly', 'edly', 'eed', 'ing', 'ed']);
  if (s1b === 'eed' || s1b === 'eedly') {
    if (w.length - s1b.length >= r1) w = `${w.slice(0, -s1b.length)}ee`;
  } else if (s1b) {
    const rest = w.slice(0, -s1b.length);
    if (/[aeiouy]/.test(rest)) {
      w = rest;
      if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
      else if (DOUBLES.some((d) => w.endsWith(d))) {
        // "added" → "add", not "ad": a double right after a word-initial a/e/o stays (Snowball 2.x).
        if (!(w.length === 3 && 'aeo'.includes(w[0] ?? ''))) w = w.slice(0, -1);
      } else if (r1 >= w.length && endsShortSyllable(w, w.length)) w += 'e';
    }
  }

  // Step 1c
  if (w.length > 2 && (w.endsWith('y') || w.endsWith('Y')) && !isVowel(w[w.length - 2])) {
    w = `${w.slice(0, -1)}i`;
  }

  // Step 2
  const s2 = longestSuffix(w, STEP2);
  if (s2 && w.length - s2[0].length >= r1) {
    const base = w.slice(0, -s2[0].length);
    if (s2[0] === 'ogi') {
      if (base.endsWith('l')) w = `${base}og`;
    } else if (s2[0] === 'li') {
      if (LI_ENDINGS.has(base[base.length - 1] ?? '')) w = base;
    } else {
      w = base + s2[1];
    }
  }

  // Step 3
  const s3 = longestSuffix(w, STEP3);
  if (s3 && w.length - s3[0].length >= r1) {
    if (s3[0] !== 'ative' || w.length - s3[0].length >= r2) w = w.slice(0, -s3[0].length) + s3[1];
  }

  // Step 4
  const s4 = longestSuffix(w, STEP4);
  if (s4 && w.length - s4.length >= r2) {
    const base = w.slice(0, -s4.length);
    if (s4 !== 'ion' || base.endsWith('s') || base.endsWith('t')) w = base;
  }

  // Step 5
  if (w.endsWith('e')) {
    const at = w.length - 1;
    if (at >= r2 || (at >= r1 && !endsShortSyllable(w, at))) w = w.slice(0, -1);
  } else if (w.endsWith('ll') && w.length - 1 >= r2) {
    w = w.slice(0, -1);
  }

  return w.replace(/Y/g, 'y');
}
