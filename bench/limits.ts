import { IMPORT_MAX_ENTRIES, UPLOAD_MAX_BYTES } from '../common/constants';
import { loadConfig, type Config } from '../server/config';

/**
 * The product's limits a benchmark can run into, each with the environment variable that sets it (README,
 * Configuration). A benchmark sets the ones it needs through these variables — the configuration the product reads —
 * and prints them all with `limitsLine`, so a figure always says what it was measured under and a changed default
 * cannot stop a benchmark without it saying why.
 */
const LIMITS = [
  {
    name: 'QA_QUESTIONS_PER_MINUTE_PER_USER',
    what: 'questions per user',
    unit: '/min',
    of: (c: Config) => c.qa.questionsPerMinutePerUser,
  },
  {
    name: 'QA_QUESTIONS_PER_MINUTE_PER_ORG',
    what: 'questions per organization',
    unit: '/min',
    of: (c: Config) => c.qa.questionsPerMinutePerOrg,
  },
  {
    name: 'QA_CONCURRENT_REQUESTS_PER_USER',
    what: 'asks in flight per user',
    unit: '',
    of: (c: Config) => c.qa.concurrentPerUser,
  },
  {
    name: 'QA_CONCURRENT_REQUESTS_PER_ORG',
    what: 'asks in flight per organization',
    unit: '',
    of: (c: Config) => c.qa.concurrentPerOrg,
  },
  {
    name: 'AUTH_RATE_LIMIT_PER_MINUTE',
    what: 'sign-ups and sign-ins per IP',
    unit: '/min',
    of: (c: Config) => c.authRateLimitPerMinute,
  },
  {
    name: 'ASSESSMENT_OPEN_QUESTIONS_PER_ORG',
    what: 'assessment questions open per organization',
    unit: '',
    of: (c: Config) => c.qa.openAssessmentQuestionsPerOrg,
  },
  {
    name: 'STORAGE_QUOTA_MB',
    what: 'storage per organization',
    unit: ' MB',
    of: (c: Config) => c.uploads.quotaBytes / (1024 * 1024),
  },
  {
    name: 'UPLOAD_LINKS_MAX',
    what: 'upload links open per organization',
    unit: '',
    of: (c: Config) => c.uploads.linksMax,
  },
] as const;

export type LimitName = (typeof LIMITS)[number]['name'];
/** Limits a benchmark sets for its run, as environment variables for `loadConfig` or a child's environment. */
export type LimitEnv = Partial<Record<LimitName, string>>;

/** High enough that no benchmark reaches it, low enough to stay an ordinary integer in every check. */
export const LIFTED = 1_000_000;

/**
 * The questions-a-minute limits lifted, for a benchmark that asks back to back to measure latency, not fair sharing.
 * Every ask still goes through the same admission query; only its ceiling moves.
 */
export const LIFTED_QUESTION_RATE: LimitEnv = {
  QA_QUESTIONS_PER_MINUTE_PER_USER: String(LIFTED),
  QA_QUESTIONS_PER_MINUTE_PER_ORG: String(LIFTED),
};

/** Limits fixed in code (common/constants.ts), named in a run's limits line when the benchmark can meet them. */
export const FIXED = {
  importEntries: `${IMPORT_MAX_ENTRIES.toLocaleString('en-US')} entries per library import call (larger libraries go in several calls)`,
  uploadBytes: `${UPLOAD_MAX_BYTES / (1024 * 1024)} MB per uploaded file`,
} as const;

/** The product's defaults: what `loadConfig` makes of an environment that sets nothing. */
export function defaultConfig(): Config {
  return loadConfig({});
}

/** The product's default of one limit, as `loadConfig` has it. */
export function defaultLimit(name: LimitName): number {
  const limit = LIMITS.find((l) => l.name === name);
  if (!limit) throw new Error(`unknown limit ${name}`);
  return limit.of(defaultConfig());
}

const shown = (n: number, unit: string) => `${n.toLocaleString('en-US')}${unit}`;

/**
 * One line saying which limits `config` sets apart from the product's defaults (with the variable and the default
 * beside each), which it leaves at the defaults, and the fixed ones in `fixed`; `scope` says which part of the run
 * it is about when the parts differ.
 */
export function limitsLine(config: Config, fixed: string[] = [], scope?: string): string {
  const defaults = defaultConfig();
  const set: string[] = [];
  const unchanged: string[] = [];
  for (const l of LIMITS) {
    const value = l.of(config);
    const product = l.of(defaults);
    if (value === product) unchanged.push(`${l.what} ${shown(value, l.unit)}`);
    else set.push(`${l.what} ${shown(value, l.unit)} (${l.name}; product default ${shown(product, l.unit)})`);
  }
  const parts = [
    set.length > 0 ? `set for this run: ${set.join(', ')}` : '',
    unchanged.length > 0 ? `${set.length > 0 ? 'at' : 'all at'} the product defaults: ${unchanged.join(', ')}` : '',
    fixed.length > 0 ? `fixed: ${fixed.join(', ')}` : '',
  ];
  return `limits${scope ? ` (${scope})` : ''}: ${parts.filter(Boolean).join('; ')}`;
}
