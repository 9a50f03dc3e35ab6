import { sql } from 'drizzle-orm';
import {
  boolean,
  bigserial,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { BrandProfile } from '../../common/schemas/organizations';
import type { SsoConfig } from '../../common/schemas/sso';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
// A tenant's rows, and a user's own, go with their organization, workspace or user (the references are lazy, so
// these may be called before the table they point to is declared).
const organizationRef = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });
const workspaceRef = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });
const userRef = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  brandName: text('brand_name'),
  brandProfile: jsonb('brand_profile').$type<BrandProfile>().notNull(),
  /** OIDC settings; the client secret is stored sealed (server/secret.ts) and never returned. */
  ssoConfig: jsonb('sso_config').$type<SsoConfig>(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * A removed user keeps its row (audit rows point at it) with `deleted_at` set; the partial unique indexes let
 * the same username or e-mail sign up again afterwards.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    /** None for a person who signs in only through SSO (provisioned by SCIM or created at first SSO sign-in). */
    passwordHash: text('password_hash'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    role: text('role').notNull().default('viewer'),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }),
    /** How the account came to be: signed up or invited ('local'), first SSO sign-in ('sso'), or SCIM ('scim'). */
    source: text('source').notNull().default('local'),
    /** The identity provider's subject (`sub`) and issuer this account is linked to, once it signed in by SSO. */
    ssoIssuer: text('sso_issuer'),
    ssoSubject: text('sso_subject'),
    /** The SCIM client's own id for this person (`externalId`). */
    scimExternalId: text('scim_external_id'),
    /**
     * The SCIM client's `userName` (often an e-mail address), kept as sent; `username` is Verity's own sign-in
     * name, which cannot hold '@' (a name with '@' is read as an address at sign-in).
     */
    scimUserName: text('scim_user_name'),
    /**
     * Removed through SCIM (DELETE): no longer a SCIM resource. Deactivation (`active: false`) and an admin's
     * removal only set `deleted_at`, so the person can be activated again.
     */
    scimDeletedAt: timestamp('scim_deleted_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * Removed by an admin in Verity (not deactivated by SCIM): the identity provider cannot bring such a person back,
     * only an admin's new invitation can.
     */
    removedByAdminAt: timestamp('removed_by_admin_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_sso_subject_uq')
      .on(t.organizationId, t.ssoIssuer, t.ssoSubject)
      .where(sql`${t.ssoSubject} is not null and ${t.deletedAt} is null`),
    uniqueIndex('users_username_live_uq')
      .on(sql`lower(${t.username})`)
      .where(sql`${t.deletedAt} is null`),
    uniqueIndex('users_email_live_uq')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.deletedAt} is null`),
    index('users_org_idx').on(t.organizationId),
  ],
);

/** Sessions are stored by the SHA-256 of the cookie value, so a database leak does not hand out sessions. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: userRef(),
    organizationId: organizationRef(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

/**
 * API tokens an admin creates for scripts and integrations (`Authorization: Bearer vrt_…`). Only the SHA-256 of
 * the token is kept; `prefix` is its first characters, so the list can tell tokens apart without holding secrets.
 * A token acts for its creator, in one organization, with at most `role` (and never more than the creator has).
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_tokens_hash_uq').on(t.tokenHash), index('api_tokens_org_idx').on(t.organizationId)],
);

/**
 * E-mail domains an organization claims for SSO: the login page finds the organization by the part of an address
 * after '@'. A claim routes sign-ins only once verified (a DNS TXT record holding `verificationToken`); until then
 * several organizations may claim the same domain, and the first to verify it holds it alone (the partial unique
 * index) while the others' claims are dropped.
 */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    domain: text('domain').notNull(),
    organizationId: organizationRef(),
    /**
     * What the organization publishes in DNS to prove it holds the domain. The default gives claims made before
     * verification existed a random token of their own (they become unverified).
     */
    verificationToken: text('verification_token')
      .notNull()
      .default(sql`replace(gen_random_uuid()::text, '-', '')`),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.domain] }),
    index('sso_domains_domain_idx').on(t.domain),
    uniqueIndex('sso_domains_verified_uq')
      .on(t.domain)
      .where(sql`${t.verifiedAt} is not null`),
  ],
);

/**
 * One SSO sign-in under way: what the callback needs to finish it (PKCE verifier, nonce) under the SHA-256 of its
 * `state`. Used once (deleted when the callback comes) and short-lived.
 */
export const ssoLoginAttempts = pgTable(
  'sso_login_attempts',
  {
    stateHash: text('state_hash').primaryKey(),
    organizationId: organizationRef(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    returnTo: text('return_to'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sso_login_attempts_expires_idx').on(t.expiresAt)],
);

/** Bearer tokens a SCIM client (Okta, Entra ID…) uses to provision one organization; only the SHA-256 is kept. */
export const scimTokens = pgTable(
  'scim_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('scim_tokens_hash_uq').on(t.tokenHash), index('scim_tokens_org_idx').on(t.organizationId)],
);

/** Groups a SCIM client pushes; a group named in the organization's group→role mapping gives its members a role. */
export const scimGroups = pgTable(
  'scim_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    displayName: text('display_name').notNull(),
    externalId: text('external_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('scim_groups_name_uq').on(t.organizationId, sql`lower(${t.displayName})`)],
);

export const scimGroupMembers = pgTable(
  'scim_group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => scimGroups.id, { onDelete: 'cascade' }),
    userId: userRef(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('scim_group_members_user_idx').on(t.userId)],
);

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    name: text('name').notNull(),
    description: text('description'),
    /**
     * Show the engine's confidence recalibrated on this workspace's own review outcomes (issue 36), once there are
     * enough of them; off by default. It changes only the figure shown, never which answer is chosen.
     */
    calibrateConfidence: boolean('calibrate_confidence').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('workspaces_org_idx').on(t.organizationId, t.createdAt)],
);

/** No foreign key on user_id: the trail outlives users and must never block a removal. */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // Insertion order: timestamps tie within a transaction (PGlite's clock is coarse), this never does.
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    organizationId: organizationRef(),
    workspaceId: uuid('workspace_id'),
    userId: uuid('user_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_logs_org_seq_idx').on(t.organizationId, t.seq)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    email: text('email').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: uuid('invited_by'),
    /** The API token that created it: revoking the token (or its creator's password reset) revokes the invitation. */
    apiTokenId: uuid('api_token_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: uuid('accepted_by'),
    createdAt: createdAt(),
  },
  (t) => [index('invitations_org_idx').on(t.organizationId)],
);

/**
 * A requested change of a user's e-mail address, pending until the link mailed to the new address is opened.
 * Like reset links: random, single-use, time-limited, stored only as its hash.
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: userRef(),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('email_changes_user_idx').on(t.userId)],
);

export const passwordResets = pgTable('password_resets', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: userRef(),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** Failed sign-ins, counted per username+IP in the database so several API processes share one limit. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_failures_key_idx').on(t.key, t.failedAt)],
);

/**
 * Questions asked through /api/qa (ask and entries) in the last minute, per user and organization: the rate limits
 * of every API process on one database read the same rows. Old rows are trimmed as new ones arrive.
 */
export const qaUsage = pgTable(
  'qa_usage',
  {
    /** In order of arrival: a request counts only what came before it (modules/qa/limits.ts). */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id').notNull(),
    userId: uuid('user_id').notNull(),
    questions: integer('questions').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('qa_usage_org_at_idx').on(t.organizationId, t.at), index('qa_usage_user_at_idx').on(t.userId, t.at)],
);

/**
 * /api/qa requests being answered right now, for the concurrency limits shared across API processes. A row ends
 * with its request; `expires_at` ends the row of a process that died mid-request.
 */
export const qaInflight = pgTable(
  'qa_inflight',
  {
    /** In order of arrival: a request counts only what came before it (modules/qa/limits.ts). */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id').notNull(),
    userId: uuid('user_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('qa_inflight_org_idx').on(t.organizationId), index('qa_inflight_user_idx').on(t.userId)],
);

/** Without SMTP_URL, mail lands here (and in the log) so a developer can follow reset and invite links. */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to_address').notNull(),
  subject: text('subject').notNull(),
  text: text('body_text').notNull(),
  createdAt: createdAt(),
});

/** drizzle has no tsvector type; the column is always generated by PostgreSQL, never written. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The approved knowledge everything else answers from. `question_norm` (case, spacing and punctuation folded) is
 * unique per workspace, so the same question can never be imported twice, even by two imports racing.
 * `verity_tags_text` is an immutable wrapper (migration 0002): a generated column may not call array_to_string.
 */
export const canonicalAnswers = pgTable(
  'canonical_answers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    workspaceId: workspaceRef(),
    question: text('question').notNull(),
    questionNorm: text('question_norm').notNull(),
    answer: text('answer').notNull(),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    status: text('status').notNull(),
    confidence: integer('confidence'),
    source: text('source'),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    lastVerifiedAt: timestamp('last_verified_at', { withTimezone: true }),
    lastVerifiedBy: uuid('last_verified_by').references(() => users.id, { onDelete: 'set null' }),
    /** Days an approved entry stays trusted after it was last verified; past that it needs re-verification. */
    reviewIntervalDays: integer('review_interval_days').notNull().default(365),
    version: integer('version').notNull().default(1),
    /** Embedding of "question\nanswer" when an embedding endpoint is configured (same storage as chunks). */
    embedding: real('embedding').array(),
    embeddingModel: text('embedding_model'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english', question), 'A') || setweight(to_tsvector('english', verity_tags_text(tags)), 'B') || setweight(to_tsvector('english', answer), 'C')`,
      ),
  },
  (t) => [
    uniqueIndex('canonical_answers_ws_question_uq').on(t.workspaceId, t.questionNorm),
    index('canonical_answers_ws_status_idx').on(t.workspaceId, t.status, t.updatedAt),
    index('canonical_answers_org_idx').on(t.organizationId),
    index('canonical_answers_search_idx').using('gin', t.searchVector),
    index('canonical_answers_tags_idx').using('gin', t.tags),
    index('canonical_answers_question_trgm_idx').using('gin', t.question.op('gin_trgm_ops')),
  ],
);

/** The state an entry had before each change: version N is what version N+1 replaced. */
export const canonicalAnswerVersions = pgTable(
  'canonical_answer_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    answerId: uuid('answer_id')
      .notNull()
      .references(() => canonicalAnswers.id, { onDelete: 'cascade' }),
    organizationId: organizationRef(),
    version: integer('version').notNull(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    tags: text('tags').array().notNull(),
    status: text('status').notNull(),
    confidence: integer('confidence'),
    source: text('source'),
    ownerId: uuid('owner_id'),
    replacedBy: uuid('replaced_by'),
    replacedAt: timestamp('replaced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('canonical_answer_versions_answer_version_uq').on(t.answerId, t.version)],
);

/**
 * An uploaded file. `status` is what users see (processing → ready | failed); `claimed_at` is the worker's claim
 * (ARCHITECTURE §7): a processing row with no claim, or a stale one, is up for the next worker.
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    workspaceId: workspaceRef(),
    storageKey: text('storage_key').notNull().unique(),
    originalName: text('original_name').notNull(),
    mimeType: text('mime_type').notNull(),
    kind: text('kind').notNull(),
    size: integer('size').notNull(),
    /** SHA-256 (hex) of the stored file when it was registered; `npm run integrity` compares it. Null before 0009. */
    sha256: text('sha256'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    status: text('status').notNull().default('processing'),
    error: text('error'),
    chunkCount: integer('chunk_count').notNull().default(0),
    pageCount: integer('page_count'),
    attempts: integer('attempts').notNull().default(0),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('documents_ws_created_idx').on(t.workspaceId, t.createdAt),
    index('documents_org_idx').on(t.organizationId),
    index('documents_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'processing'`),
  ],
);

/**
 * One upload link (POST /api/objects/upload) and what became of it: `issued` → `uploading` (one PUT holds it) →
 * `uploaded` → `registering` → `registered`, or `refused`. Claiming a state with a conditional UPDATE is what makes
 * a link single-use under concurrent requests; the links also bound each organization's outstanding uploads and
 * the bytes they hold (the storage quota), and tell the sweep which objects were abandoned. Only the URL's SHA-256
 * is kept: registration must present the signed URL itself, not just the key inside it.
 */
export const uploadLinks = pgTable(
  'upload_links',
  {
    storageKey: text('storage_key').primaryKey(),
    organizationId: organizationRef(),
    urlHash: text('url_hash').notNull(),
    state: text('state').notNull().default('issued'),
    /** The size the browser announced, if any; counted against the quota until the bytes arrive. */
    declaredSize: integer('declared_size'),
    /** Set by the local driver's PUT, which hashes while it writes. */
    size: integer('size'),
    sha256: text('sha256'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('upload_links_org_state_idx').on(t.organizationId, t.state),
    index('upload_links_expires_idx').on(t.expiresAt),
  ],
);

/** Extracted text in ~1,000-character pieces, each with its page and section, indexed for the answer engine. */
export const documentChunks = pgTable(
  'document_chunks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').notNull(),
    workspaceId: uuid('workspace_id').notNull(),
    ordinal: integer('ordinal').notNull(),
    page: integer('page'),
    section: text('section'),
    text: text('text').notNull(),
    /** Only when an embedding endpoint is configured; real[] works without pgvector (STACK-NOTES). */
    embedding: real('embedding').array(),
    embeddingModel: text('embedding_model'),
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english', coalesce(section, '')), 'A') || setweight(to_tsvector('english', text), 'B')`,
      ),
  },
  (t) => [
    uniqueIndex('document_chunks_doc_ordinal_uq').on(t.documentId, t.ordinal),
    // Every lookup by workspace, and the vector index's listing of a workspace's chunks in id order, a page at a time
    // (vector-index.ts).
    index('document_chunks_ws_id_idx').on(t.workspaceId, t.id),
    index('document_chunks_search_idx').using('gin', t.searchVector),
  ],
);

/**
 * What changed in a workspace, counted for the engine's in-memory indexes: database triggers (migration 0018) add a
 * row per statement that changes what an index holds — `library` (entries' text, status, tags, versions,
 * verification) or `vectors` (embedded entries and chunks). The sum of `n` per workspace and kind only grows, whatever
 * order transactions commit in, so an index knows it is current from one indexed lookup instead of scanning the
 * rows; rows are only ever inserted (no lock to wait for) and folded into one now and then.
 */
export const workspaceChanges = pgTable(
  'workspace_changes',
  {
    // No foreign key: its check would lock the workspace row from every chunk and entry write, so deleting a
    // workspace could deadlock with the embedding sweep on PostgreSQL. Deleting a workspace deletes its rows.
    workspaceId: uuid('workspace_id').notNull(),
    kind: text('kind').notNull(),
    n: integer('n').notNull().default(1),
  },
  (t) => [index('workspace_changes_ws_kind_idx').on(t.workspaceId, t.kind)],
);

/** A chat (PRODUCT §7 QA session): the questions one user asked together, e.g. for one customer. */
export const qaSessions = pgTable(
  'qa_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    workspaceId: workspaceRef(),
    userId: userRef(),
    title: text('title').notNull(),
    customerName: text('customer_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('qa_sessions_ws_created_idx').on(t.workspaceId, t.createdAt)],
);

/** One question asked and the answer given, with its type, confidence and sources (PRODUCT §7 Chat entry). */
/**
 * A task (a question the workspace answered 'Needs Review') someone set aside: it stays off the task list until the
 * question is asked again after `dismissed_at` (PRODUCT §7). One row per question, by its folded key.
 */
export const qaTaskDismissals = pgTable(
  'qa_task_dismissals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    workspaceId: workspaceRef(),
    questionKey: text('question_key').notNull(),
    dismissedBy: uuid('dismissed_by').references(() => users.id, { onDelete: 'set null' }),
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('qa_task_dismissals_ws_key_uq').on(t.workspaceId, t.questionKey)],
);

export const qaEntries = pgTable(
  'qa_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    workspaceId: workspaceRef(),
    sessionId: uuid('session_id').references(() => qaSessions.id, { onDelete: 'cascade' }),
    userId: userRef(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    answerType: text('answer_type').notNull(),
    confidence: integer('confidence').notNull(),
    sources: jsonb('sources').$type<unknown[]>().notNull(),
    lastVerifiedAt: timestamp('last_verified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('qa_entries_ws_created_idx').on(t.workspaceId, t.createdAt),
    index('qa_entries_session_idx').on(t.sessionId),
    index('qa_entries_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * An imported questionnaire (PRODUCT §9 Assessment batch). The customer's original file stays in object storage
 * (`storage_key`) so the export can hand back that same workbook filled in; `mapping` is where its questions and
 * answer cells are (server/ingest/questionnaire).
 */
export const assessmentBatches = pgTable(
  'assessment_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    workspaceId: workspaceRef(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The chat that started it from the Ask screen's Bulk Import, if any. */
    sessionId: uuid('session_id').references(() => qaSessions.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description'),
    status: text('status').notNull().default('processing'),
    error: text('error'),
    totalQuestions: integer('total_questions').notNull(),
    metadata: jsonb('metadata')
      .$type<{ sourceFile: string | null; customerName: string | null; assessmentType: string | null }>()
      .notNull(),
    sourceFormat: text('source_format').notNull(),
    storageKey: text('storage_key'),
    /** Size and SHA-256 (hex) of the stored original, for the storage quota and `npm run integrity`. */
    fileSize: integer('file_size'),
    fileSha256: text('file_sha256'),
    mapping: jsonb('mapping').$type<unknown[]>().notNull(),
    /** When the customer expects the filled questionnaire back (a calendar day); the list shows it overdue after. */
    dueOn: date('due_on', { mode: 'string' }),
    /** What the export does with answers the customer had already filled in: 'keep' them, or 'replace' them. */
    prefilledAnswers: text('prefilled_answers').notNull().default('keep'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** When a worker last claimed one of its questions: the claims take turns between organizations and batches. */
    lastClaimedAt: timestamp('last_claimed_at', { withTimezone: true }),
  },
  (t) => [
    index('assessment_batches_ws_created_idx').on(t.workspaceId, t.createdAt),
    index('assessment_batches_processing_idx')
      .on(t.organizationId)
      .where(sql`${t.status} = 'processing'`),
  ],
);

/**
 * One question of a batch, answered by the worker (ARCHITECTURE §7): pending → processing (claimed) → completed | failed,
 * and approved once a reviewer accepts it. `claimed_at` is the claim; a stale one is taken over.
 */
export const assessmentQuestions = pgTable(
  'assessment_questions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => assessmentBatches.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').notNull(),
    workspaceId: uuid('workspace_id').notNull(),
    orderIndex: integer('order_index').notNull(),
    question: text('question').notNull(),
    sheet: text('sheet'),
    rowNumber: integer('row_number'),
    controlId: text('control_id'),
    section: text('section'),
    allowedValues: text('allowed_values').array(),
    /** The customer's answer already in the file at import (a template's hint text is not one). */
    existingAnswer: text('existing_answer'),
    /** The template's hint in the answer cell ("mm/dd/yyyy"), which an answer may replace. */
    answerHint: text('answer_hint'),
    /** Text already in the comments cell at import; the export leaves it. */
    existingComment: text('existing_comment'),
    /**
     * The dropdown value a person picked for the answer cell (one of `allowed_values`; '' leaves the cell empty);
     * null: the export chooses it from the answer's Yes / No / N/A.
     */
    answerChoice: text('answer_choice'),
    answer: text('answer'),
    answerType: text('answer_type'),
    confidence: integer('confidence'),
    sources: jsonb('sources')
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    status: text('status').notNull().default('pending'),
    errorMessage: text('error_message'),
    attempts: integer('attempts').notNull().default(0),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /** Answers written by the worker; a question answered exactly once has 1 (the crash tests count on it). */
    answerCount: integer('answer_count').notNull().default(0),
    /** Who produced the answer: 'machine' (the engine) or 'person' (`edited_by`, at `answered_at`); null before any. */
    answerOrigin: text('answer_origin'),
    editedBy: uuid('edited_by').references(() => users.id, { onDelete: 'set null' }),
    /** needs_answer → drafted → in_review → approved, or not_applicable (common/review-states.ts). */
    reviewState: text('review_state').notNull().default('needs_answer'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    dueOn: date('due_on', { mode: 'string' }),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    /** Set once the assignee was told the question is overdue, so the reminder goes once per due date. */
    overdueNotifiedAt: timestamp('overdue_notified_at', { withTimezone: true }),
    /** What "Save to library" made of this answer: the entry, or the suggestion waiting for an approver. */
    libraryEntryId: uuid('library_entry_id').references(() => canonicalAnswers.id, { onDelete: 'set null' }),
    librarySuggestionId: uuid('library_suggestion_id').references(() => librarySuggestions.id, {
      onDelete: 'set null',
    }),
    /**
     * The engine's last answer as it wrote it, kept through a person's edits (which clear `confidence` and
     * `sources` above, as they no longer describe the answer shown), so the review's outcome can be told against it
     * (review_outcomes). Null when the engine never answered the question.
     */
    machineAnswer: text('machine_answer'),
    machineAnswerType: text('machine_answer_type'),
    machineConfidence: integer('machine_confidence'),
    machineSources: jsonb('machine_sources').$type<unknown[]>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('assessment_questions_batch_order_uq').on(t.batchId, t.orderIndex),
    // "My questions", and the overdue sweep.
    index('assessment_questions_assignee_idx')
      .on(t.assigneeId, t.dueOn)
      .where(sql`${t.assigneeId} is not null`),
    // The worker's claim order (oldest batch first, in question order) and "is anything left in this batch?".
    index('assessment_questions_waiting_idx')
      .on(t.createdAt, t.orderIndex)
      .where(sql`${t.status} in ('pending', 'processing')`),
    index('assessment_questions_batch_waiting_idx')
      .on(t.batchId)
      .where(sql`${t.status} in ('pending', 'processing')`),
  ],
);

/**
 * What became of one machine answer when its review ended (issue 36): 'unchanged', 'edited' (with
 * `edit_distance`), 'replaced', 'not_applicable' or 'regenerated' (server/modules/assessments/review-outcomes.ts
 * holds the rules), with what the engine said of the answer at the time. One row per question: a later review of the
 * same question replaces it. It goes with its question (and assessment) when that is deleted.
 */
export const reviewOutcomes = pgTable(
  'review_outcomes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    workspaceId: workspaceRef(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => assessmentBatches.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id')
      .notNull()
      .references(() => assessmentQuestions.id, { onDelete: 'cascade' }),
    outcome: text('outcome').notNull(),
    /** Normalized Levenshtein distance of the machine's text and the approved one (0–1); null when none was approved. */
    editDistance: real('edit_distance'),
    confidence: integer('confidence').notNull(),
    answerType: text('answer_type').notNull(),
    /** The question's most specific taxonomy topic, 'other' when it names none; null for back-filled rows. */
    topic: text('topic'),
    /** The library entry and documents the machine answer came from (ids only: the evidence outlives them). */
    libraryEntryId: uuid('library_entry_id'),
    documentIds: uuid('document_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }).notNull(),
    /**
     * The Monday (UTC) of `reviewed_at`'s week, which the weekly trend groups by: stored, because computing it for
     * each of 100,000 rows was most of the page's time (bench:accuracy).
     */
    reviewWeek: date('review_week', { mode: 'string' })
      .notNull()
      .generatedAlwaysAs(sql`(date_trunc('week', "reviewed_at" at time zone 'UTC'))::date`),
  },
  (t) => [
    uniqueIndex('review_outcomes_question_uq').on(t.questionId),
    // The accuracy page reads one workspace's period: every figure it shows comes from this index alone.
    index('review_outcomes_ws_reviewed_idx').on(
      t.organizationId,
      t.workspaceId,
      t.reviewedAt,
      t.confidence,
      t.outcome,
      t.answerType,
      t.topic,
      t.reviewWeek,
    ),
    index('review_outcomes_batch_idx').on(t.batchId),
  ],
);

/**
 * A questionnaire layout a person corrected in the import preview, remembered for the whole organization: the next
 * file of that layout is read with `mapping` and needs no correction. A file matches when its sheet names give
 * `sheet_names_key` and, read under `mapping`, its header cells and id pattern give `fingerprint`
 * (server/ingest/questionnaire/layout-fingerprint.ts); the file's bytes play no part.
 */
export const questionnaireLayouts = pgTable(
  'questionnaire_layouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    fingerprint: text('fingerprint').notNull(),
    sheetNamesKey: text('sheet_names_key').notNull(),
    /** The sheet mappings, the last question row kept as a count of filled rows under it (`lastRowFromEnd`). */
    mapping: jsonb('mapping').$type<unknown[]>().notNull(),
    savedBy: uuid('saved_by').references(() => users.id, { onDelete: 'set null' }),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('questionnaire_layouts_org_fingerprint_uq').on(t.organizationId, t.fingerprint),
    index('questionnaire_layouts_org_names_idx').on(t.organizationId, t.sheetNamesKey),
  ],
);

/**
 * An answer proposed for the library by someone who may not approve entries (PRODUCT §5): it waits in the
 * approvers' inbox and becomes an approved entry, or is rejected with a reason the suggester sees.
 */
export const librarySuggestions = pgTable(
  'library_suggestions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationRef(),
    workspaceId: workspaceRef(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    suggestedBy: uuid('suggested_by').references(() => users.id, { onDelete: 'set null' }),
    /** The assessment question it came from, if any. */
    sourceBatchId: uuid('source_batch_id').references(() => assessmentBatches.id, { onDelete: 'set null' }),
    /** pending → approved | rejected. */
    status: text('status').notNull().default('pending'),
    rejectionReason: text('rejection_reason'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The entry an approval created or updated. */
    canonicalAnswerId: uuid('canonical_answer_id').references(() => canonicalAnswers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('library_suggestions_ws_status_idx').on(t.workspaceId, t.status, t.createdAt),
    index('library_suggestions_org_idx').on(t.organizationId),
  ],
);
