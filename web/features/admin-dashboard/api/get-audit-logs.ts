import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { AuditLogRow } from '../../../../common/schemas/admin';
import { apiFetchWithHeaders } from '../../../lib/api';
import { totalFromHeader } from '../../../lib/offset-pages';
import type { AuditLogFilter } from '../audit-log-format';
import { queryKeys } from '../../../app/query-keys';

export const AUDIT_PAGE_SIZE = 25;

const AuditLogList = z.array(AuditLogRow);

export interface AuditLogPage {
  rows: AuditLogRow[];
  /** Rows matching the filter in all pages, from X-Total-Count. */
  total: number;
}

/** One page of the organization's audit trail, newest first. */
export async function getAuditLogs(
  filter: AuditLogFilter,
  offset: number,
  signal?: AbortSignal,
): Promise<AuditLogPage> {
  const params = new URLSearchParams({ limit: String(AUDIT_PAGE_SIZE), offset: String(offset) });
  if (filter.action) params.set('action', filter.action);
  if (filter.userId) params.set('userId', filter.userId);
  const { data, headers } = await apiFetchWithHeaders(
    'GET',
    `/api/admin/audit-logs?${params.toString()}`,
    AuditLogList,
    {
      signal,
    },
  );
  return { rows: data, total: totalFromHeader(headers, offset, data.length) };
}

export function auditLogsQueryOptions(filter: AuditLogFilter, offset: number) {
  return queryOptions({
    queryKey: queryKeys.admin.auditLogPage(filter, offset),
    queryFn: ({ signal }) => getAuditLogs(filter, offset, signal),
    meta: { scope: 'organization' },
  });
}

/** PRODUCT §10: loads only while the dialog is open on the audit tab (the tab mounts this hook). */
export function useAuditLogs(filter: AuditLogFilter, offset: number) {
  return useQuery({
    ...auditLogsQueryOptions(filter, offset),
    refetchOnMount: 'always',
    placeholderData: keepPreviousData,
  });
}
