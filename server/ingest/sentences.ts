/**
 * Text normalisation and sentence splitting for the chunker. Kept apart from the packing logic because it is pure
 * language heuristics that may be tuned on its own.
 */

// C0/C1 control characters (except tab and line breaks), soft hyphens, zero-width characters and BOMs. NUL in
// particular must never reach PostgreSQL, which rejects it in text columns; the rest are invisible in a snippet
// and break full-text tokens.
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u200b-\u200d\u2060\ufeff]/g;

/** Splits text into paragraphs (separated by a blank line), each with its whitespace collapsed. */
export function paragraphsOf(text: string): string[] {
  return text
    .replace(INVISIBLE, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n[^\S\n]*\n/)
    .filter((paragraph) => /\S/.test(paragraph));
}

// A line that starts a list item: the line break before it ends a "sentence" even without punctuation, so that a
// list is not treated as one run-on sentence.
const LIST_ITEM = /\n(?=[^\S\n]*(?:[-*•‣◦▪–]|\d{1,3}[.)]|[a-z][.)])\s)/;

// A sentence ends with . ! ? or … (optionally followed by closing quotes or brackets), then whitespace, then
// something that is not a lower-case letter, so "e.g. the" and "approx. twelve" stay together.
const SENTENCE_END = /(?<=[.!?…]["'”’)\]]*)\s+(?=[^\s\p{Ll}])/u;

/** The sentences of a paragraph, whitespace collapsed; never empty strings. */
export function sentencesOf(paragraph: string): string[] {
  const sentences: string[] = [];
  for (const item of paragraph.split(LIST_ITEM)) {
    const collapsed = collapseWhitespace(item);
    if (collapsed === '') continue;
    for (const sentence of collapsed.split(SENTENCE_END)) if (sentence !== '') sentences.push(sentence);
  }
  return sentences;
}

/** Collapses every run of whitespace (including line breaks and non-breaking spaces) to one space, trimmed. */
export function collapseWhitespace(text: string): string {
  // Only what is not already a single space is replaced: with /\s+/ every space between two words is a match, and
  // the millions of matches in a 20 MB paragraph took more than 256 MB to replace.
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}

/**
 * Cuts a word longer than `max` into pieces of at most `max` UTF-16 units, never inside a surrogate pair (a piece
 * may exceed `max` by one unit only when `max` is 1 and the character needs two).
 */
export function splitLongWord(word: string, max: number): string[] {
  const pieces: string[] = [];
  // Slices rather than a string built a character at a time: a 20 MB "word" (a file with no spaces) would otherwise
  // make twenty million one-character strings for the garbage collector.
  let start = 0;
  while (start < word.length) {
    let end = Math.min(word.length, start + max);
    // Never cut between the two halves of a surrogate pair; when max is 1 the pair goes whole.
    if (end < word.length && isHighSurrogate(word.charCodeAt(end - 1)) && isLowSurrogate(word.charCodeAt(end))) {
      end = end - 1 > start ? end - 1 : end + 1;
    }
    pieces.push(word.slice(start, end));
    start = end;
  }
  return pieces;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

// Words that stay hyphenated when a line break fell after their hyphen ("self-\nservice", "third- party"): the
// first halves of common compounds, where joining would make a word nobody writes ("selfservice").
const COMPOUND_FIRST = new Set(
  'all anti co cross end ex first full half high long low multi non off on one open post pre real risk role second self short sub third time two well'.split(
    ' ',
  ),
);
// "short- and long-term": a suspended hyphen, not a broken word.
const SUSPENDED = new Set(['and', 'or', 'nor', 'to', 'through', 'vs', 'versus']);
const BROKEN_WORD = /(\p{L}+)-(?:[^\S\n]*\n[^\S\n]*|[^\S\n]+)(\p{Ll}+)/gu;

/**
 * Joins words hyphenated across a line break: "authenti-\ncation" as extracted, or "authenti- cation" once the
 * chunker has collapsed the line break. Only a lower-case continuation joins (a capital starts a new line of its
 * own); a suspended hyphen ("pre- and post-") stays, and compounds keep their hyphen ("third-party").
 */
export function joinBrokenWords(text: string): string {
  return text.replace(BROKEN_WORD, (whole, first: string, rest: string, offset: number) => {
    if (SUSPENDED.has(rest)) return whole;
    const before = offset > 0 ? text.charAt(offset - 1) : '';
    // Part of a longer compound ("end-to- end", "3rd- party"): keep its hyphens.
    const keepHyphen = COMPOUND_FIRST.has(first.toLowerCase()) || /[-\p{N}]/u.test(before);
    return keepHyphen ? `${first}-${rest}` : `${first}${rest}`;
  });
}

// Headings and titles. Chunk text is whitespace-collapsed, so a heading or a document title (on its own line in the
// document) runs into the sentence after it: "Password Policy All passwords must…".

/** A word of a heading: capitalised, a number ("4.2"), or a bracketed or quoted one ("(AUP)"). */
const TITLE_WORD = /^[("'“‘[]?[\p{Lu}\p{N}]/u;
/** Small words a heading may hold between its capitalised ones ("Backup and Recovery"). */
const CONNECTOR = /^(?:and|or|of|the|for|to|in|on|at|by|with|&|[-–—/|:])$/;
/** Words a sentence starts with; one inside a capitalised run marks where the heading before it ends. */
const OPENERS = new Set(
  'A An The All Any Each Every No Our We This These Those It Its They Their In For To When If Where Upon Within Before After During Once Only'.split(
    ' ',
  ),
);
/**
 * Last words of headings ("Password Policy", "Incident Response Plan", "Scope"), kept to words that seldom
 * describe the next one: "Management System" and "Process Owners" are names, not a heading and a sentence.
 */
const HEADING_NOUN =
  /^(?:Polic(?:y|ies)|Procedures?|Standards?|Plans?|Overview|Scope|Purpose|Introduction|Summary|Requirements|Guidelines?|Statement|Responsibilities|Definitions|Exceptions|Enforcement)$/;
/** Openers that are also labels ("Annex A controls", "Control No 5"): a heading noun must come right before. */
const LABEL_OPENERS = new Set(['A', 'An', 'No']);
const bare = (word: string) => word.replace(/[^\p{L}\p{N}]+$/u, '');

/** A line with no closing punctuation whose words (at most 12) are all capitalised: a heading, not a sentence. */
export function isHeadingLine(line: string): boolean {
  const words = collapseWhitespace(line).split(' ');
  if (words.length > 12 || /[.!?…;:,"'”’]$/.test(line.trim())) return false;
  // Spreadsheet rows ("Control: Encryption At Rest; Owner: IT") are labelled values, not headings.
  if (line.includes(';') || words.slice(2).some((word) => word.endsWith(':'))) return false;
  return words.every((word, i) => TITLE_WORD.test(word) || (i > 0 && CONNECTOR.test(word)));
}

/**
 * A function giving a sentence without the heading or title that runs into it: one of `titles` (the chunk's
 * section, the document's title; compared without case or numbering), or a capitalised run that ends where a
 * sentence visibly starts — at a word sentences start with ("Access Control The company…"), after a heading's last
 * word ("Password Policy Passwords must…") or at a repeated word ("Backups Backups are…"). A proper name that starts
 * a sentence ("Amazon Web Services maintains…") shows none of these and stays.
 */
export function leadingTitleStripper(titles: ReadonlyArray<string | null>): (sentence: string) => string {
  const patterns = titles.flatMap((title) => {
    const re = title ? titlePattern(title) : null;
    return re ? [re] : [];
  });
  return (sentence) => {
    let text = sentence;
    // A document title may precede the section heading: strip until nothing more comes off.
    for (let round = 0; round < 3; round++) {
      let stripped = text;
      for (const re of patterns) stripped = withoutTitle(stripped, re);
      stripped = withoutHeadingRun(stripped);
      if (stripped === text) break;
      text = stripped;
    }
    return text;
  };
}

function titlePattern(title: string): RegExp | null {
  const words = title
    .replace(/^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+/, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
  // A one-word title ("Policy", "Backups") is too likely to be the sentence's own first word.
  if (words.length === 0 || (words.length < 2 && (words[0]?.length ?? 0) < 6)) return null;
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^(?:\\d+(?:\\.\\d+)*\\.?\\s+)?${escaped.join('[^\\p{L}\\p{N}]+')}[^\\p{L}\\p{N}\\s]*\\s+`, 'iu');
}

function withoutTitle(sentence: string, re: RegExp): string {
  const found = re.exec(sentence);
  if (!found) return sentence;
  const rest = sentence.slice(found[0].length);
  // Only before what starts a sentence: "Backups are…" after "Backups", not "Access Control lists are…".
  return /^[\p{Lu}\p{N}]/u.test(rest) && rest.length >= 20 ? rest : sentence;
}

function withoutHeadingRun(sentence: string): string {
  const words = sentence.split(' ');
  const first = words[0] ?? '';
  if (OPENERS.has(first)) return sentence; // a sentence that opens like one
  // The capitalised run: everything before the first lower-case word that is not a connector.
  const lower = words.findIndex((word, i) => !(TITLE_WORD.test(word) || (i > 0 && CONNECTOR.test(word))));
  // All capitals is a heading or a labelled row ("Control: Data In Transit; Owner: IT"), with no sentence to free.
  if (lower === -1 || words.slice(0, lower).some((word) => word.endsWith(';'))) return sentence;
  let cut = -1;
  for (let j = 1; j < lower && cut === -1; j++) {
    const word = words[j] ?? '';
    const afterHeading = HEADING_NOUN.test(bare(words[j - 1] ?? ''));
    // "Annex A controls are…" is a sentence; "Backup Policy A backup is…" is a heading and one.
    if (OPENERS.has(word) && (afterHeading || (j >= 2 && !LABEL_OPENERS.has(word)))) cut = j;
  }
  for (let j = lower - 1; j >= 1 && cut === -1; j--) {
    const word = words[j] ?? '';
    const previous = bare(words[j - 1] ?? '');
    if (!TITLE_WORD.test(word) || CONNECTOR.test(word)) continue;
    // After a heading of two words or more ("Password Policy Passwords…", not "Policy Owners…"), or a repeat.
    if ((HEADING_NOUN.test(previous) && j >= 2) || previous.toLowerCase() === bare(word).toLowerCase()) cut = j;
  }
  if (cut === -1 || cut >= words.length - 1) return sentence;
  const rest = words.slice(cut).join(' ');
  return rest.length >= 20 ? rest : sentence;
}
