/**
 * Every query key of the web app, in one place: a query and every invalidation of it read the same entry, so a key
 * can never be re-spelled differently in two files.
 *
 * Keys nest on purpose: invalidating a root (`library.root`, `qa.root`, `organizationStats`) refreshes everything
 * under it. Filters are part of the key as the UI holds them, so each filter is its own cache entry.
 */
export const queryKeys = {
  /** The signed-in user and their permissions. Organization data: a workspace switch keeps it. */
  me: ['auth', 'me'] as const,
  invitation: (token: string) => ['auth', 'invitation', token] as const,
  demoCredentials: ['auth', 'demo-credentials'] as const,
  sessions: ['auth', 'sessions'] as const,

  organization: ['organization', 'current'] as const,
  /**
   * The sidebar's counts. The pending task lists sit under it, next to the count they detail: whatever changes that
   * count (asking, any library change) already invalidates this root and so refreshes the lists too.
   */
  organizationStats: ['organization-stats'] as const,
  pendingTasks: {
    panel: ['organization-stats', 'tasks', 'panel'] as const,
    all: ['organization-stats', 'tasks', 'all'] as const,
  },
  /** Every list of the organization's people sits under this root, so one invalidation refreshes them all. */
  organizationUsers: {
    root: ['organization-users'] as const,
    admin: ['organization-users', 'admin'] as const,
  },
  invitations: ['organization-invitations'] as const,
  workspaces: (organizationId: string) => ['workspaces', organizationId] as const,
  apiTokens: ['api-tokens'] as const,

  library: {
    root: ['canonical-answers'] as const,
    list: <F extends object>(filter: F) => ['canonical-answers', 'list', filter] as const,
    counts: (q: string, tag: string | undefined, mine = false) =>
      ['canonical-answers', 'counts', { q, tag, mine }] as const,
    ids: <F extends object>(filter: F) => ['canonical-answers', 'ids', filter] as const,
    /** Shared by the library's tag filter and the side panel's popular tags: one cache entry for one call. */
    tags: ['canonical-answers', 'tags'] as const,
    issues: ['canonical-answers', 'issues'] as const,
    versions: (id: string) => ['canonical-answers', 'versions', id] as const,
    /** Under the library root: a decision changes the library, and any library change may answer a suggestion. */
    suggestions: (status: string | undefined) => ['canonical-answers', 'suggestions', status ?? 'all'] as const,
  },

  documents: {
    root: ['documents'] as const,
    list: <F extends object>(filter: F) => ['documents', 'list', filter] as const,
    chunks: (id: string) => ['documents', 'chunks', id] as const,
  },

  assessments: {
    root: ['assessments'] as const,
    list: ['assessments', 'list'] as const,
    detail: (id: string) => ['assessments', 'detail', id] as const,
    batch: (id: string) => ['assessments', 'batch', id] as const,
    /**
     * What the library and documents hold for one question, as searched from its answer editor. Not under the
     * assessments root: a review elsewhere must not search again (each search counts as a question asked).
     */
    evidence: (batchId: string, questionId: string, q: string) =>
      ['question-evidence', batchId, questionId, q] as const,
    /** "My questions": under the root, so any review or assignment on an assessment refreshes it. */
    mine: ['assessments', 'mine'] as const,
    /** The sidebar's count of questions in review: under the root, so a submit, approve or send-back refreshes it. */
    reviewQueue: ['assessments', 'review-queue'] as const,
    /** Not under the assessments root: an import elsewhere must not re-send the file. */
    preview: <M>(token: number, mapping: M | undefined) => ['assessment-preview', token, mapping ?? null] as const,
  },

  /** Everything built on asked questions (chat history) sits under 'qa', so asking refreshes it all. */
  qa: {
    root: ['qa'] as const,
    historyEntries: <F extends object>(filter: F, offset: number) =>
      ['qa', 'history', 'entries', filter, offset] as const,
    historySessions: ['qa', 'history', 'sessions'] as const,
    /** Ask's recent chats (the caller's own). */
    recentSessions: ['qa', 'sessions', 'recent'] as const,
    /** A chat reopened on Ask. */
    session: (id: string) => ['qa', 'sessions', 'detail', id] as const,
  },

  /**
   * What reviewers did with the machine's answers in the current workspace, per period: the Accuracy page and the
   * bulk-accept offer read the same entry. Workspace data (no organization scope); any review makes it stale.
   */
  accuracy: {
    root: ['accuracy'] as const,
    view: (from: string, to: string) => ['accuracy', 'view', { from, to }] as const,
  },

  /** Organization data of the Admin Dashboard: a workspace switch keeps it (see `meta.scope` on each query). */
  admin: {
    sso: ['admin', 'sso'] as const,
    scim: ['admin', 'scim'] as const,
    engine: ['admin', 'engine'] as const,
    analytics: (days: number) => ['admin', 'analytics', days] as const,
    auditLogs: ['admin', 'audit-logs'] as const,
    auditLogPage: <F extends object>(filter: F, offset: number) =>
      ['admin', 'audit-logs', 'page', filter, offset] as const,
    auditLogFilters: ['admin', 'audit-logs', 'filters'] as const,
  },
};
