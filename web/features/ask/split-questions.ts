/**
 * PRODUCT §7: the composer's text as the questions to ask. More than one non-empty line gives one question per line;
 * otherwise text holding several sentences ending in '?' or '!' gives one question per sentence; else the whole
 * trimmed text is one question. Blank text gives none.
 */
export function splitQuestions(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length > 1) return lines;
  const whole = text.trim();
  if (!whole) return [];
  const sentences = whole
    .split(/(?<=[?!])\s+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
  return sentences.length > 1 ? sentences : [whole];
}

/** PRODUCT §12: a session is titled after its first question, cut at 50 characters. */
export const SESSION_TITLE_MAX = 50;

/** The session title for a first question: cut at 50 characters plus '...' (whole when it already fits). */
export function sessionTitleFrom(question: string): string {
  const text = question.trim().replace(/\s+/g, ' ');
  return text.length > SESSION_TITLE_MAX ? `${text.slice(0, SESSION_TITLE_MAX).trimEnd()}...` : text;
}
