import { withoutUnsafeNameCharacters } from '../../common/names';

/**
 * A user-given name (an assessment, a customer, an organization) as an e-mail shows it: on one line, without
 * controls or text-direction overrides (the schemas refuse them, but a name may predate that), its own double quotes
 * made single so it cannot close ours, at most `max` characters, in quotation marks. Whoever chose the name writes
 * only what is inside them, never one of Verity's sentences.
 */
export function quotedName(name: string, max: number): string {
  const plain = withoutUnsafeNameCharacters(name).replace(/"/g, "'").replace(/\s+/g, ' ').trim();
  const chars = [...plain];
  if (chars.length <= max) return `"${plain}"`;
  const cut = chars.slice(0, max - 3).join('');
  return `"${cut.trimEnd()}..."`;
}

/** How much of a name a subject shows: enough to tell it apart, too little for a message. */
export const SUBJECT_NAME_MAX = 60;
