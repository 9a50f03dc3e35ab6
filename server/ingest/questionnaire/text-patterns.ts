// How a cell reads: a header label for one of the roles, a question, a section title, an instruction, a control id.
// Heuristics tuned on the layouts customers send (SIG, CAIQ, home-grown vendor questionnaires); each one errs on the
// side of keeping a row as a question, since a reviewer can delete a question but never sees a dropped one.

// Control characters other than tab and line breaks: invisible in a cell, and NUL (which a workbook writes as
// "_x0000_" and SheetJS decodes) is refused by PostgreSQL in a text column, failing the whole import.
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000e-\u001f\u007f]/g;

/** A cell's text as a person reads it: control characters removed, lines trimmed, spaces collapsed, no empty lines. */
export function cleanCellText(raw: string): string {
  if (raw === '') return '';
  return (
    raw
      .replace(CONTROL_CHARACTERS, '')
      .split(/\r\n|\r|\n/)
      // Runs and single non-space characters only: matching every lone space costs memory on a huge cell.
      .map((line) => line.replace(/[\s\u200b]{2,}|[^\S ]|\u200b/g, ' ').trim())
      .filter((line) => line !== '')
      .join('\n')
  );
}

// Chinese and Japanese write without spaces; each ideograph or kana counts as a word, which is closer to how many
// words a sentence holds than counting a whole sentence as one.
const SPACELESS_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}][\p{L}\p{N}'’&/.-]*/gu;

/** Words in a text, counted over its first thousand characters: callers compare with small numbers only. */
export function wordCount(text: string): number {
  const sample = text.length > 1_000 ? text.slice(0, 1_000) : text;
  if (!SPACELESS_SCRIPT.test(sample)) return sample.match(/[\p{L}\p{N}][\p{L}\p{N}'’&/.-]*/gu)?.length ?? 0;
  return sample.match(WORD)?.length ?? 0;
}

/** Ends with a question mark, the ASCII one or the full-width one of Chinese and Japanese text. */
export function endsWithQuestionMark(text: string): boolean {
  return /[?？]$/.test(text);
}

/** Lower case, punctuation as spaces, "Yes / No" as "yes/no": the form header phrases are compared in. */
export function normalizeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/[^\p{L}\p{N}#/&]+/gu, ' ')
    .replace(/\s*\/\s*/g, '/')
    .trim();
}

export type Role = 'question' | 'answer' | 'comments' | 'id' | 'section';
export type RoleScores = Record<Role, number>;

const ID_WORDS = /(^|\s)(id|#|no|nr|num|number|ref|reference|identifier|code|key)$/;
const ID_EXACT = /^(#|s\/n|sn|sr no|sl no|serial|index|q#|qid|item #|ref #|ref no)$/;
const SECTION_WORDS =
  /\b(domain|category|categories|section|area|topic|family|chapter|group|theme|pillar|subcategory|sub category)\b/;
const COMMENT_WORDS =
  /\b(comments?|notes?|explanation|explain|justification|remarks?|evidence|details?|rationale|clarification|elaboration|additional information|additional info|supporting|implementation description)\b/;
// A column the recipient keeps for its own reviewer ("Analyst Notes", "Assessor comments", "For internal use") is
// not one the vendor writes in. Only notes of a reviewer: "Response to Assessor" or "Auditor Request" keep their role.
const REVIEWER_NOTES =
  /\b(analysts?|reviewers?|assessors?|auditors?|evaluators?|scorers?)('?s)?\b.*\b(notes?|comments?|remarks?|observations?|findings?)\b|\b(internal|office|official|institution|client) use\b/;
const ANSWER_EXACT =
  /^(answers?|responses?|vendor (response|answer)|supplier (response|answer)|your (response|answer)|yes\/no(\/n\/?a)?|y\/n(\/n\/?a)?|compliance|compliant|compliance status|status|implemented|in place|selection|consensus assessment answers?|csp caiq answer|caiq answer)$/;
// A few non-English words: questionnaires from European customers often keep their own language in the header.
const ANSWER_WORDS =
  /(^|[^\p{L}])(answers?|responses?|reply|replies|réponses?|reponses?|antwort(en)?|respuestas?|respostas?|risposte?|antwoord)([^\p{L}]|$)/u;
const YES_NO = /\byes\/no\b|\by\/n\b/;
const COMPLIANCE_WORDS = /\b(compliance|compliant|status|implemented)\b/;
const QUESTION_EXACT =
  /^(questions?|question text|the question|security questions?|control questions?|assessment questions?|consensus assessment questions?|caiq questions?|query|queries|ask|request)$/;
const QUESTION_WORD =
  /(^|[^\p{L}])(questions?|fragen?|preguntas?|perguntas?|domande?|vragen?|vraag)([^\p{L}]|$)|问题|問題|质询|質問|질문/u;
const DESCRIPTION_WORD = /\bdescription\b/;
const REQUIREMENT_EXACT =
  /^(requirements?|controls?|control statement|control requirement|control specification|control text|control objective|control activity|criteria|criterion|items?|specification|statement|security requirements?|requirement text|standard)$/;
const REQUIREMENT_WORDS = /\b(requirements?|controls?|criteria|criterion)\b/;

/**
 * How strongly a header label names each role. Order matters: "Question ID" is an id, "Response Comments" holds
 * comments, "Control Domain" is a section, before any of them is considered a question or an answer.
 */
export function headerRoles(label: string): RoleScores {
  const scores: RoleScores = { question: 0, answer: 0, comments: 0, id: 0, section: 0 };
  if (label.length > 120) return scores;
  const text = normalizeLabel(label);
  if (text === '' || text.length > 80 || wordCount(text) > 12) return scores;
  const words = text.split(' ').length;
  if (REVIEWER_NOTES.test(text)) return scores;

  if (ID_EXACT.test(text) || (words <= 4 && ID_WORDS.test(text))) {
    // CAIQ has both: the question's own id is the better reference.
    scores.id = /\bquestion\b/.test(text) ? 4 : 3;
    return scores;
  }
  if (SECTION_WORDS.test(text)) {
    scores.section = 5;
    return scores;
  }
  if (COMMENT_WORDS.test(text) && !ANSWER_EXACT.test(text)) {
    scores.comments = /^(comments?|notes?|explanation|justification|remarks?|evidence|details|rationale)$/.test(text)
      ? 10
      : 7;
    return scores;
  }
  if (ANSWER_EXACT.test(text)) scores.answer = 10;
  else if (ANSWER_WORDS.test(text) || YES_NO.test(text)) scores.answer = 8;
  else if (COMPLIANCE_WORDS.test(text)) scores.answer = 5;
  if (scores.answer > 0) return scores;

  if (QUESTION_EXACT.test(text)) scores.question = 10;
  else if (QUESTION_WORD.test(text)) scores.question = 9;
  else if (DESCRIPTION_WORD.test(text)) scores.question = 6;
  else if (REQUIREMENT_EXACT.test(text)) scores.question = 4;
  else if (REQUIREMENT_WORDS.test(text)) scores.question = 3;
  return scores;
}

/** Roles a header can be recognised by at all; used to tell a header row from a title. */
export function bestRole(scores: RoleScores): number {
  return Math.max(scores.question, scores.answer, scores.comments, scores.id, scores.section);
}

const QUESTION_START =
  /^(do|does|did|is|are|was|were|has|have|had|can|could|will|would|shall|should|may|must|describe|provide|explain|list|please|how|what|which|who|whom|whose|where|when|why|identify|indicate|specify|confirm|detail|outline|attach|upload|share|summari[sz]e|define|demonstrate|submit|give|clarify|elaborate)\b/i;

/** Reads as a question or a request for information: ends with "?" or starts like one. */
export function isQuestionLike(text: string): boolean {
  const body = stripLeadingId(text);
  if (endsWithQuestionMark(body)) return body.length >= 8 || (SPACELESS_SCRIPT.test(body) && body.length >= 5);
  return QUESTION_START.test(body) && wordCount(body) >= 3;
}

/** A control statement ("Access to production is restricted to authorized personnel."): a sentence, not a title. */
export function isStatementLike(text: string): boolean {
  const body = stripLeadingId(text);
  const words = wordCount(body);
  if (/[.;:!。；：！]$/.test(body)) return words >= 3;
  return words >= 6;
}

/**
 * A heading such as "Access Control", "A.5 Information Security Policies" or "SECTION 2 - NETWORK": a few words with
 * no closing punctuation that is neither a question nor a sentence.
 */
export function isTitleLike(text: string): boolean {
  if (text === '' || text.length > 100 || text.includes('\n')) return false;
  if (/[?.;!？。！；]$/.test(text) && !/\b[A-Z]{1,4}\.$/.test(text)) return false;
  if (isQuestionLike(text)) return false;
  const words = wordCount(stripLeadingId(text));
  return words >= 1 && words <= 8;
}

const INSTRUCTION_START =
  /^(instructions?|guidance|how to|note|notes|important|read me|readme|please (complete|answer|fill|respond|select|use|return|read|refer|note|ensure|mark|enter|indicate|choose|provide (a |an )?(response|answer)s?)|complete (all|each|the)|answer (all|each|the following)|for each (question|item|control|row)|select (yes|one|an? (answer|option|value))|fill (in|out)|use the)\b/i;
const INSTRUCTION_TOPIC =
  /\b(column|drop-?down|this (sheet|tab|workbook|questionnaire|form|document|section|spreadsheet)|each (question|row|item)|all (questions|items)|the following (questions|items)|below)\b/i;

/** A line telling the respondent how to fill the form in, as opposed to a question for them. */
export function isInstruction(text: string): boolean {
  if (/^(instructions?|guidance|note|important)\s*[:-]/i.test(text)) return true;
  return INSTRUCTION_START.test(text) && (INSTRUCTION_TOPIC.test(text) || !isQuestionLike(text));
}

const CONTROL_ID_PATTERNS = [
  /^[A-Z]{1,6}(&[A-Z]{1,6})?[-_.]?\d{1,3}([.-]\d{1,3}){0,3}[a-z]?( ?\(\d{1,2}\))?$/i, // IAM-02, A&A-01, CC6.1, DSP-07.1, AC-2 (1)
  /^[A-Z]\.\d{1,3}(\.\d{1,3}){0,3}$/i, // A.5.1
  /^\d{1,3}(\.\d{1,3}){1,4}\.?$/, // 1.2, 1.2.3
  /^(?=[^\d]*\d)[A-Z][A-Z0-9]{0,7}(&[A-Z]{1,6})?([-_.][A-Z0-9]{1,8}){1,6}$/i, // G-SM-A-1-1, HR-3.2-b, DOCU-01
];

/** Looks like a control or question reference rather than a count or a word. */
export function isControlId(text: string): boolean {
  // "v4.0.3" is the template's version, printed in the corner where ids go.
  if (/^v(er)?\.?\s?\d+(\.\d+)*$/i.test(text)) return false;
  return text.length <= 24 && CONTROL_ID_PATTERNS.some((pattern) => pattern.test(text));
}

const LEADING_ID =
  /^([A-Z]{1,6}(&[A-Z]{1,6})?[-_.]\d{1,3}([.-]\d{1,3}){0,3}[a-z]?|\d{1,3}(\.\d{1,3}){1,4}\.?)[\s:)–-]+(?=\S)/i;

/** "IAM-02 Do you…" → "IAM-02": a reference written in front of the question when there is no id column. */
export function leadingControlId(text: string): { id: string; rest: string } | null {
  const match = LEADING_ID.exec(text);
  if (!match?.[1]) return null;
  const rest = text.slice(match[0].length).trim();
  return rest.length >= 8 ? { id: match[1].replace(/\.$/, ''), rest } : null;
}

/** Also strips a numbering like "1." or "(a)" so that "1. Do you…" still reads as a question. */
function stripLeadingId(text: string): string {
  return text
    .replace(LEADING_ID, '')
    .replace(/^(\(?[0-9a-z]{1,3}[.)]|[•*–-])\s+/i, '')
    .trim();
}

/** "Human Resources Security": most longer words capitalised, as headings are and sentences are not. */
export function isTitleCase(text: string): boolean {
  const words = stripLeadingId(text)
    .split(/\s+/)
    .filter((word) => /^\p{L}{4,}/u.test(word));
  if (words.length === 0) return true;
  const capitalised = words.filter((word) => /^\p{Lu}/u.test(word)).length;
  return capitalised / words.length >= 0.6;
}

/** Only digits, punctuation and spaces: a number or a date, never a question. */
export function isNumberOnly(text: string): boolean {
  return /^[\d\s.,:;%#()/+\-–]*$/.test(text);
}

const YES_NO_VALUES =
  /^(yes|no|y|n|n\/?a|na|not applicable|partial(ly)?|true|false|compliant|non-?compliant|in progress|planned)$/i;

/** A dropdown that answers a question (Yes / No / N/A…) rather than picking a category. */
export function isAnswerChoiceList(values: readonly string[]): boolean {
  const matching = values.filter((value) => YES_NO_VALUES.test(value.trim())).length;
  return matching >= 2 && matching >= values.length / 2;
}

/** A short yes/no style value, as found in an answer column that was already filled in. */
export function isAnswerChoice(text: string): boolean {
  return YES_NO_VALUES.test(text.trim());
}

// What respondents put under the one answer-choice column that applies (CAIQ v3: an X under Yes, No or Not
// Applicable), compared trimmed and lower-cased. A cell holding its own column's label ("No" under No) is one too.
const CHOICE_MARKS: readonly string[] = [
  'x',
  '✓',
  '✔',
  '✅',
  '☑',
  '☒',
  '√',
  '✗',
  '✘',
  '×',
  '•',
  '●',
  '*',
  '1',
  'yes',
  'y',
  'true',
];

/** Written under a choice column when the sheet shows no mark of its own to copy. */
export const DEFAULT_CHOICE_MARK = 'X';

/** A respondent's mark under the answer-choice column labelled `label`. */
export function isChoiceMark(text: string, label: string): boolean {
  const value = text.trim().toLowerCase();
  return value !== '' && (CHOICE_MARKS.includes(value) || value === label.trim().toLowerCase());
}

// Sheets that hold everything but the questions; without a clear "Question" header they are not searched.
const NON_QUESTION_SHEET =
  /\b(instructions?|read ?me|guide|guidance|cover|introduction|intro|overview|definitions?|glossary|lists?|lookups?|drop ?downs?|values|version|change ?log|revision|history|scoring|summary|dashboard|contents|toc|legend|reference)\b/i;

export function isNonQuestionSheetName(name: string): boolean {
  return NON_QUESTION_SHEET.test(name);
}
