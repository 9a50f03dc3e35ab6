import type { AuditLogRow } from '../../../common/schemas/admin';

/** The audit log's filter: one action and/or one acting user ('system' for rows no user caused). */
export interface AuditLogFilter {
  action?: string;
  userId?: string;
}

/** PRODUCT "Audit Log": underscores become spaces and the action is upper-cased ('user_role_changed' → 'USER ROLE CHANGED'). */
export function formatAuditAction(action: string): string {
  return action.replace(/_/g, ' ').toUpperCase();
}

/** PRODUCT: an entity id shows its first 8 characters. */
export function shortEntityId(entityId: string | null): string {
  return entityId ? entityId.slice(0, 8) : '';
}

/** PRODUCT: a row without a user was written by the system. */
export function auditActor(row: Pick<AuditLogRow, 'userId' | 'username'>): string {
  if (!row.userId) return 'System';
  return row.username ?? row.userId.slice(0, 8);
}

const DETAIL_MAX = 60;

function detailValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX - 1)}…` : text;
}

/**
 * A change's details on one line: 'viewer → manager' for a change with `from` and `to` (PostgreSQL's jsonb keeps no
 * key order, so the pair is put together here), then any other field as 'key: value'.
 */
export function formatAuditDetails(details: AuditLogRow['details']): string {
  if (!details) return '';
  const { from, to, ...rest } = details;
  const parts: string[] = [];
  if (from !== undefined && to !== undefined) parts.push(`${detailValue(from)} → ${detailValue(to)}`);
  else if (from !== undefined) rest.from = from;
  else if (to !== undefined) rest.to = to;
  for (const [key, value] of Object.entries(rest)) {
    if (value !== null && value !== undefined && value !== '') parts.push(`${key}: ${detailValue(value)}`);
  }
  return parts.join(' · ');
}
