import type { ShortAnswer } from './write-types';

// How questionnaires spell the three answers in their dropdowns. Compared after lower-casing and collapsing spaces.
const SPELLINGS: Readonly<Record<ShortAnswer, readonly string[]>> = {
  Yes: ['yes', 'y', 'true'],
  No: ['no', 'n', 'false'],
  'N/A': ['n/a', 'na', 'n.a.', 'n.a', 'n / a', 'not applicable', 'not-applicable', 'none applicable'],
};

function normalise(value: string): string {
  return value.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The dropdown value that says `short`, or null when none does (the cell is then left alone and the explanation
 * still goes to the comments column). An exact spelling wins; otherwise a single value that starts with the word
 * ("Yes - fully implemented", "No, planned") is taken, never a guess between two.
 */
export function chooseAllowedValue(short: ShortAnswer, allowed: readonly string[]): string | null {
  const spellings = SPELLINGS[short];
  const exact = allowed.find((value) => spellings.includes(normalise(value)));
  if (exact !== undefined) return exact;
  const prefixed = gradedValues(short, allowed);
  return prefixed.length === 1 ? (prefixed[0] ?? null) : null;
}

/** The graded values of a dropdown that say `short` ("Yes, for some applications", "Yes, for all applications"). */
export function gradedValues(short: ShortAnswer, allowed: readonly string[]): string[] {
  // Single letters are too weak a prefix: "N" would take "N/A" for No.
  const words = SPELLINGS[short].filter((spelling) => spelling.length > 1);
  return allowed.filter((value) => {
    const text = normalise(value);
    return words.some((word) => text.startsWith(word) && !/[\p{L}\p{N}]/u.test(text.charAt(word.length)));
  });
}

const contentWords = (text: string) =>
  new Set(
    normalise(text)
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length >= 3),
  );

/**
 * Among graded values of the same polarity, the one whose own words the answer uses, when exactly one is ahead
 * ("…for every application we run" picks "Yes, for all applications" only if it shares more words than the
 * others); null when the answer does not tell them apart. Never a guess.
 */
export function chooseGradedValue(short: ShortAnswer, allowed: readonly string[], answer: string): string | null {
  const exact = chooseAllowedValue(short, allowed);
  if (exact !== null) return exact;
  const candidates = gradedValues(short, allowed);
  if (candidates.length < 2) return null;
  const said = contentWords(answer);
  // Only the words that tell the grades apart ("some", "all"), not those they share ("yes", "for", "applications").
  const own = candidates.map((value) => contentWords(value));
  const common = (word: string) => own.every((words) => words.has(word));
  const scored = candidates
    .map((value, i) => ({
      value,
      shared: [...(own[i] ?? [])].filter((word) => !common(word) && said.has(word)).length,
    }))
    .sort((a, b) => b.shared - a.shared);
  const [best, next] = scored;
  return best && best.shared > 0 && best.shared > (next?.shared ?? 0) ? best.value : null;
}

/** Said in the comments when a graded dropdown is left empty, so the reviewer knows to pick. */
export function ungradedNote(values: readonly string[]): string {
  return `Dropdown left empty: the answer does not say which of ${values.map((v) => `"${v}"`).join(', ')} applies.`;
}

/**
 * What a dropdown answer cell and its comments cell get: the allowed value the answer supports (or null, the cell
 * left as it is), and the explanation, with a sentence for the reviewer when a graded list was left empty. A value a
 * person `picked` (null: leave the cell empty) is taken as it is when the list offers it.
 */
export function dropdownAnswer(
  short: ShortAnswer | null | undefined,
  allowed: readonly string[],
  text: string,
  picked?: string | null,
): { choice: string | null; comments: string } {
  if (picked === null) return { choice: null, comments: text };
  if (picked !== undefined && allowed.includes(picked)) return { choice: picked, comments: text };
  const choice = short ? chooseGradedValue(short, allowed, text) : null;
  const graded = choice === null && short ? gradedValues(short, allowed) : [];
  return { choice, comments: graded.length > 1 ? `${text}\n${ungradedNote(graded)}` : text };
}
