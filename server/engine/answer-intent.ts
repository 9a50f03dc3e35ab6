/**
 * What kind of fact a question asks for ("how long" → a duration, "who" → a person or role…), so that among the
 * sentences that share the question's words the one that states such a fact wins. Classic question answering:
 * the words of "How long is CCTV footage retained?" also occur in "CCTV covers the entrances", but only
 * "footage is retained for 30 days" answers it.
 */
export type Intent = 'duration' | 'frequency' | 'count' | 'who' | 'name';

const NUMBER_WORD =
  '(?:\\d+(?:[.,]\\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|sixty|ninety|hundred)';
const UNIT = '(?:seconds?|minutes?|hours?|days?|business days?|weeks?|months?|years?|quarters?)';

const ASKS: Array<[Intent, RegExp]> = [
  [
    'duration',
    /\b(how long|how quickly|how soon|how fast|within what|what (?:is the )?(?:maximum |minimum )?(?:time|period|duration|timeframe|deadline)|retention period|maximum duration|how many (?:days|hours|months|years))\b/i,
  ],
  ['frequency', /\b(how often|how frequently|frequency|at what interval|how regularly)\b/i],
  [
    'count',
    /\b(how many|number of|what (?:is the )?(?:minimum|maximum) (?:\w+ )?(?:size|length|number)|cohort size|key lengths?)\b/i,
  ],
  ['who', /\b(who|which (?:team|role|person|group|function)|what (?:team|role))\b/i],
  [
    'name',
    /\b(which|what) (?:tool|product|software|service|provider|vendor|platform|bank|questionnaire|standard|framework|solution|one)\b|\bwhich one\b/i,
  ],
];

const STATES: Record<Intent, RegExp> = {
  duration: new RegExp(`\\b${NUMBER_WORD}[- ]${UNIT}\\b|\\bwithin ${NUMBER_WORD}\\b`, 'i'),
  frequency:
    /\b(annual(?:ly)?|yearly|quarterly|monthly|weekly|daily|hourly|continuous(?:ly)?|every (?:\w+ )?(?:day|week|month|quarter|year|six months|hours?)|once a|twice a|per (?:year|quarter|month)|each (?:year|quarter|month))\b/i,
  count: new RegExp(`\\b${NUMBER_WORD}\\b`, 'i'),
  // A named role or body, not any "team" or "owner": "data owners … who confirm" does not say who decides.
  who: /\b(CISO|CTO|CEO|CFO|COO|CIO|DPO|General Counsel|Chief [A-Z]\w+(?: [A-Z]\w+)* Officer|[A-Z]\w+ (?:Officer|Committee|Board|Team)|(?:security|GRC|legal|compliance|privacy|IT|operations|engineering|HR|people) team|Legal|Director|Head of \w+|Vice President|VP)\b/,
  // A capitalised word that does not start the sentence: a product, vendor or standard's name.
  name: /(?<=\S\s+)(?:[A-Z][a-z]*[A-Z0-9][\w-]*|[A-Z][a-z]+(?:\s[A-Z][\w-]+)+|\d?[A-Z][a-z]+\d*)\b/,
};

/** The kinds of fact the question asks for, in order of appearance; empty for a plain yes/no question. */
export function intentsOf(question: string): Intent[] {
  return ASKS.filter(([, re]) => re.test(question)).map(([intent]) => intent);
}

/** The intents among `intents` that the sentence states a fact for. */
export function intentsStated(sentence: string, intents: readonly Intent[]): Intent[] {
  return intents.filter((i) => STATES[i].test(sentence));
}

const YES_NO = /^\s*(is|are|do|does|did|can|could|will|would|has|have|was|were|should|must|shall)\b/i;
// Words that flip or qualify what a sentence says; a sentence using one the question does not is not a plain yes.
const POLARITY =
  /\b(not|never|no|none|cannot|can't|don't|doesn't|isn't|aren't|won't|prohibit\w*|forbid\w*|disallow\w*|disabl\w*|block\w*|den(?:y|ied|ies)|without|except|unless|only)\b/gi;

export function isYesNoQuestion(question: string): boolean {
  return YES_NO.test(question) && intentsOf(question).length === 0;
}

// Plain negations: a sentence whose only polarity words (beyond the question's) are these says "no".
const NEGATION =
  /^(not|never|no|none|cannot|can't|don't|doesn't|isn't|aren't|won't|prohibit\w*|forbid\w*|disallow\w*)$/;

/**
 * "Yes. " or "No. " when a yes/no question is answered plainly by a sentence that covers it well: "Yes" when the
 * sentence uses no negating or restricting word the question does not; "No" when the only such words are plain
 * negations (not, never, prohibited…). A restriction (only, unless, except, without…) or a mix keeps the evidence
 * unprefixed: a wrong "Yes" or "No" is worse than none.
 */
export function yesOpening(question: string, sentence: string, coverage: number): string {
  if (!isYesNoQuestion(question) || coverage < 0.8) return '';
  const asked = new Set((question.match(POLARITY) ?? []).map((w) => w.toLowerCase()));
  const extra = (sentence.match(POLARITY) ?? []).map((w) => w.toLowerCase()).filter((w) => !asked.has(w));
  if (extra.length === 0) return 'Yes. ';
  return asked.size === 0 && extra.every((w) => NEGATION.test(w)) ? 'No. ' : '';
}
