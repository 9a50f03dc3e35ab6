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
  // Single letters are too weak a prefix: "N" would take "N/A" for No.
  const words = spellings.filter((spelling) => spelling.length > 1);
  const prefixed = allowed.filter((value) => {
    const text = normalise(value);
    return words.some((word) => text.startsWith(word) && !/[\p{L}\p{N}]/u.test(text.charAt(word.length)));
  });
  return prefixed.length === 1 ? (prefixed[0] ?? null) : null;
}
