import { dictionary } from '@zxcvbn-ts/language-common';
import { badRequest } from '../../errors';

/**
 * The ~49,000 most common passwords of public breach corpora, as shipped (as data) by zxcvbn-ts. Built on first
 * use, so a process that never sets a password never holds it. Compared in lower case: 'Password123' is as
 * guessable as 'password123'.
 */
let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/**
 * ASVS V2.1.7: a new password (sign-up, change, reset) must not be a common or breached one. The length rule is in
 * the shared schema; this half needs the list, so it runs on the server only. `field` names the form field, so the
 * web form can show the sentence under it like any validation error.
 */
export function assertPasswordAllowed(password: string, field: string): void {
  if (!isCommonPassword(password)) return;
  const message = 'This password is too common: it appears in lists of leaked passwords. Choose another one.';
  throw badRequest(message, { in: 'body', issues: [{ field, message }] });
}
