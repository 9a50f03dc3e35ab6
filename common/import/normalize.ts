/**
 * The form in which two questions count as the same ("same text after normalising case, spacing and
 * punctuation"): NFKC (so full-width letters and ligatures match their plain forms), lower case, and every run of
 * characters that are neither letters nor digits in any script collapsed to one space.
 */
export function normalizeQuestion(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
