import { normalizeLabel } from './text-patterns';

// What templates print in an answer cell to show what goes there: a date or phone mask, an example address, a
// pointer to the instructions, an "Enter…" prompt.
const HINT_PATTERNS: readonly RegExp[] = [
  /^(mm|dd|yyyy|yy)([/.\-\s](mm|dd|yyyy|yy)){2}$/i,
  /^(\(?[05x]{3}\)?[\s.-]?)?[05x]{3}[\s.-]?[05x]{4}$/i,
  /\b(example\.(com|org|net)|your-?domain|your-?company|vendor\.domain|domain\.(com|edu|org))\b/i,
  /^(see|refer to)\b.{0,60}\b(instructions?|guidance|tab|sheet)\b/i,
  /^(enter|insert|type|select|choose|provide|add|write)\b.{0,60}$/i,
  /^(<[^>]{1,60}>|\[[^\]]{1,60}\]|\{[^}]{1,60}\}|x{3,}|_{3,}|\.{3,}|tbd)$/i,
];

const words = (text: string) =>
  normalizeLabel(text)
    .split(/[\s/-]+/)
    .filter((word) => word.length >= 3);

/**
 * Whether an answer cell's text is the template's hint rather than someone's answer: a known mask or prompt, or a
 * short text made mostly of the question's own words ("Vendor Name" under "Vendor Name", "Brief Description of the
 * Product" under "Product Description"). Errs towards "an answer": a hint kept costs one blank answer, an answer
 * taken for a hint would be overwritten.
 */
export function isTemplateHint(cell: string, question: string): boolean {
  const text = cell.trim();
  if (text === '' || text.length > 120) return false;
  if (HINT_PATTERNS.some((pattern) => pattern.test(text))) return true;
  const own = words(text);
  const asked = new Set(words(question));
  if (own.length === 0 || own.length > 8 || asked.size === 0) return false;
  const shared = [...asked].filter((word) => own.includes(word)).length;
  return shared >= 1 && shared >= asked.size * 0.6 && shared >= own.length * 0.4;
}
