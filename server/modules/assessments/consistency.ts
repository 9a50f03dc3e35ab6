import { specificTopics, topicsOf } from '../../engine/text/taxonomy';
import { termsOf } from '../../engine/text/thesaurus';

export type Answered = { orderIndex: number; question: string; answer: string | null; controlId: string | null };

/** Yes or No as the answer states it first ("Yes. We…", "No, …", a dropdown's "Yes"), else null. */
export function polarity(answer: string | null): 'yes' | 'no' | null {
  const m = /^\s*(yes|no)\b/i.exec(answer ?? '');
  return m?.[1] ? (m[1].toLowerCase() as 'yes' | 'no') : null;
}

/** An answer from the customer's file without the numbering its dropdown gave the choice ("2) No" → "No"). */
export function withoutNumbering(answer: string): string {
  return answer.replace(/^\s*\(?\d{1,2}[).:-]\s*/, '');
}

/** The polarity of an answer the customer wrote in their file. */
export function customerPolarity(answer: string | null): 'yes' | 'no' | null {
  return polarity(withoutNumbering(answer ?? ''));
}

/** Verity's answer says the opposite of the answer the customer already gave in the file. */
export function disagreesWithCustomer(answer: string | null, existing: string | null): boolean {
  const ours = polarity(answer);
  const theirs = customerPolarity(existing);
  return ours !== null && theirs !== null && ours !== theirs;
}

/** A topic must be mentioned at least this strongly for two questions to be "about the same control". */
const TOPIC_MIN = 0.5;
/** …and the questions must share this much of their wording (Jaccard over the engine's folded terms). */
const OVERLAP_MIN = 0.5;
/** Under one control id questions may ask different things ("Is X done?" / "Are exceptions allowed?"): less. */
const CONTROL_OVERLAP_MIN = 0.3;

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/**
 * The consistency check: pairs of questions in one assessment that ask about the same control — the same control
 * id, or the same specific topic of the taxonomy and mostly the same words — and got opposite Yes/No answers.
 * Returns, per question (by order index), the questions it contradicts. Questions are compared only within a
 * shared topic or control id, so a 5,000-question assessment stays quick.
 */
export function findContradictions(questions: readonly Answered[]): Map<number, number[]> {
  type Item = { orderIndex: number; polarity: 'yes' | 'no'; terms: Set<string>; controlId: string | null };
  const buckets = new Map<string, Item[]>();
  for (const q of questions) {
    const p = polarity(q.answer);
    if (!p) continue;
    const item: Item = { orderIndex: q.orderIndex, polarity: p, terms: new Set(termsOf(q.question)), controlId: null };
    const keys = new Set<string>();
    const topics = topicsOf(q.question);
    for (const id of specificTopics(topics)) if ((topics.get(id) ?? 0) >= TOPIC_MIN) keys.add(`topic:${id}`);
    if (q.controlId?.trim()) {
      item.controlId = q.controlId.trim().toLowerCase();
      keys.add(`control:${item.controlId}`);
    }
    for (const key of keys) {
      const list = buckets.get(key);
      if (list) list.push(item);
      else buckets.set(key, [item]);
    }
  }
  const found = new Map<number, Set<number>>();
  const flag = (a: number, b: number) => {
    const set = found.get(a) ?? new Set<number>();
    set.add(b);
    found.set(a, set);
  };
  for (const [key, items] of buckets) {
    const byControl = key.startsWith('control:');
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const a = items[i] as Item;
        const b = items[j] as Item;
        if (a.polarity === b.polarity) continue;
        if (jaccard(a.terms, b.terms) < (byControl ? CONTROL_OVERLAP_MIN : OVERLAP_MIN)) continue;
        flag(a.orderIndex, b.orderIndex);
        flag(b.orderIndex, a.orderIndex);
      }
    }
  }
  return new Map([...found].map(([k, v]) => [k, [...v].sort((x, y) => x - y)]));
}
