import { canonicalTerms, tsqueryGroups as thesaurusGroups, tsqueryTerms as thesaurusTerms } from './thesaurus';

/**
 * The terms of a text the engine compares: stop words dropped, synonyms and acronyms folded to one canonical form
 * (2FA, two-factor, MFA → mfa), stemmed like PostgreSQL's english configuration. One function for questions,
 * entries and chunks, so both sides are always treated alike.
 */
export function termsOf(text: string): string[] {
  return [...new Set(canonicalTerms(text))];
}

/**
 * Lexemes for `to_tsquery('english', …)`, to be joined with ` | `: the question's words, then the other spellings
 * of its phrases. Only [a-z0-9], so nothing the user typed can change the query's syntax.
 */
export function tsqueryTerms(text: string): string[] {
  return thesaurusTerms(text).slice(0, 40);
}

/** The same lexemes grouped by concept: a query ANDs groups and ORs the spellings within one. */
export function tsqueryGroups(text: string): string[][] {
  return thesaurusGroups(text);
}
