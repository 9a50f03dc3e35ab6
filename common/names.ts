import type { z } from 'zod';

/**
 * Characters a name people give to things (an assessment, a customer, an organization) must not hold, since other
 * people read it, in e-mails above all: controls (a line break would let a name start a paragraph of its own),
 * line and paragraph separators, and the text-direction controls — embeddings and overrides U+202A–U+202E,
 * isolates U+2066–U+2069, the marks U+200E, U+200F and U+061C — that make "Acme‮gpj.exe" read "Acmeexe.jpg".
 *
 * File names refuse these and every other invisible character (common/file-names.ts, the same rule widened to all
 * format characters). Names keep the zero-width joiner and non-joiner, which Persian, Indic scripts and emoji need
 * to be spelled right, and right-to-left letters themselves, which need no control characters to show correctly.
 */
const UNSAFE = /[\p{Cc}\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu');

export function hasUnsafeNameCharacters(name: string): boolean {
  return UNSAFE.test(name);
}

/** The name with each unsafe character as a space: for showing a name saved before the rule, or that came another way. */
export function withoutUnsafeNameCharacters(name: string): string {
  return name.replace(UNSAFE_ALL, ' ');
}

export const unsafeNameMessage = (label: string) =>
  `${label} cannot contain line breaks, control characters or text-direction controls.`;

/** Adds the rule to a name's schema, after its own checks (so it sees the trimmed name). */
export function safeName<S extends z.ZodType<string>>(schema: S, label: string): S {
  return schema.refine((name) => !hasUnsafeNameCharacters(name), unsafeNameMessage(label));
}
