import { useMutation } from '@tanstack/react-query';
import type { BatchView } from '../../../../common/schemas/assessments';
import { apiDownload, saveFile } from '../../../lib/api';
import { assessmentPath } from './assessment-path';

/** 'original': the customer's own file filled in, in its own format (BatchView.originalExport). */
export type ExportFormat = 'csv' | 'xlsx' | 'original';
/** all: every answer (drafts a person wrote only when asked); approved: approved answers only, the rest left blank. */
export type ExportScope = 'all' | 'approved';

export interface ExportInput {
  batch: Pick<BatchView, 'id' | 'name' | 'originalExport'>;
  format: ExportFormat;
  /** xlsx only: add a Source column citing the document and page (or library entry) of each answer. */
  withSources?: boolean;
  /** Also export answers nobody approved yet, each marked as a draft (left out by default). */
  drafts?: boolean;
  /** scope all: the engine's answers nobody reviewed yet go in too (the default); false leaves them blank. */
  machine?: boolean;
  /** xlsx only: a new workbook with the questions and answers instead of the customer's own file. */
  generic?: boolean;
  scope?: ExportScope;
}

/** The export call's query string: only what differs from the server's defaults. */
export function exportParams({
  format,
  withSources = false,
  drafts = false,
  machine = true,
  generic = false,
  scope = 'all',
}: Omit<ExportInput, 'batch'>): URLSearchParams {
  const params = new URLSearchParams({ format });
  if (format === 'xlsx' && withSources) params.set('sources', '1');
  // Approved only leaves every draft out whatever the checkbox said.
  if (drafts && scope === 'all') params.set('drafts', '1');
  if (!machine && scope === 'all') params.set('machine', '0');
  if (format === 'xlsx' && generic) params.set('generic', '1');
  if (scope === 'approved') params.set('scope', 'approved');
  return params;
}

/**
 * Downloads the answers, named after the assessment (PRODUCT §12). Excel is the customer's own workbook filled in when
 * the assessment came from an .xlsx or .xls file (unless `generic`), else a new workbook.
 */
export async function exportAssessment({ batch, ...options }: ExportInput): Promise<void> {
  const params = exportParams(options);
  const file = await apiDownload(
    'GET',
    assessmentPath(batch.id, `/export?${params.toString()}`),
    `${batch.name}.${options.format === 'original' ? (batch.originalExport ?? 'xlsx') : options.format}`,
    {
      errorFallback: 'Failed to export assessment',
    },
  );
  saveFile(file);
}

export function useExportAssessment() {
  return useMutation({ mutationFn: exportAssessment });
}
