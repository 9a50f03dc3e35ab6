import type { AuditLogFilter } from '../audit-log-format';

// Everything here is organization data: a workspace switch keeps it (see `meta.scope` on each query). The users list
// is keyed with the organization's other people lists instead (see get-admin-users.ts).
export const adminKeys = {
  sso: ['admin', 'sso'] as const,
  engine: ['admin', 'engine'] as const,
  analytics: (days: number) => ['admin', 'analytics', days] as const,
  auditLogs: ['admin', 'audit-logs'] as const,
  auditLogPage: (filter: AuditLogFilter, offset: number) => ['admin', 'audit-logs', 'page', filter, offset] as const,
  auditLogFilters: ['admin', 'audit-logs', 'filters'] as const,
};
