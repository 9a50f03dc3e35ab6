import { useMemo, useState } from 'react';
import { Download, Gauge, ShieldCheck, ShieldQuestion } from 'lucide-react';
import type { AccuracyView } from '../../../../common/schemas/accuracy';
import {
  accuracyParams,
  OFFER_PERIOD,
  thresholdSentence,
  type AccuracyPeriod,
} from '../../../app/accuracy/accuracy-period';
import { useAccuracy } from '../../../app/accuracy/get-accuracy';
import { useWorkspace } from '../../../app/workspace/use-workspace';
import { ANSWER_TYPE_LABELS } from '../../../components/knowledge/answer-type-badge';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { toastError } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/format';
import { calibrationPoints, formatShare, reliabilityPoints, trendPoints } from '../accuracy-chart-data';
import { useExportAccuracy } from '../api/export-accuracy';
import { KeptTrendChart, ReliabilityChart } from './accuracy-charts';
import { AccuracyPeriodPicker } from './accuracy-period-picker';
import { CalibrationSwitch } from './calibration-switch';
import { OutcomeTable, type OutcomeRow } from './outcome-table';
import { Panel } from './panel';

function ThresholdNote({ accuracy }: { accuracy: AccuracyView }) {
  const { threshold } = accuracy;
  return (
    <Alert variant={threshold ? 'info' : 'default'}>
      {threshold ? <ShieldCheck aria-hidden /> : <ShieldQuestion aria-hidden />}
      <AlertTitle>
        {threshold ? `Bulk-accept threshold: ${String(threshold.confidence)}%` : 'No bulk-accept threshold yet'}
      </AlertTitle>
      <AlertDescription>
        {thresholdSentence(threshold)}
        {threshold &&
          accuracy.calibration.active &&
          " In the confidence calibrated on this workspace's reviews, which reviewers see and bulk accept compares."}
      </AlertDescription>
    </Alert>
  );
}

function AccuracyBody({ accuracy, busy }: { accuracy: AccuracyView; busy: boolean }) {
  const points = useMemo(() => reliabilityPoints(accuracy.bands), [accuracy.bands]);
  const weeks = useMemo(() => trendPoints(accuracy.weekly), [accuracy.weekly]);
  const calibration = useMemo(() => calibrationPoints(accuracy.calibration.curve), [accuracy.calibration.curve]);
  const bandRows: OutcomeRow[] = accuracy.bands.map((b) => ({ key: b.band, label: b.label, counts: b }));
  const typeRows: OutcomeRow[] = accuracy.byType.map((t) => ({
    key: t.answerType,
    label: ANSWER_TYPE_LABELS[t.answerType],
    counts: t,
  }));
  const topicRows: OutcomeRow[] = accuracy.byTopic.map((t) => ({ key: t.topic, label: t.label, counts: t }));
  const { totals } = accuracy;
  return (
    <div className={cn('grid gap-4 transition-opacity', busy && 'opacity-60')} aria-busy={busy || undefined}>
      <ThresholdNote accuracy={accuracy} />
      <p className="text-sm text-muted-foreground">
        <span className="font-medium text-foreground tabular-nums">{formatNumber(totals.reviewed)}</span> machine
        answers reviewed from {accuracy.from} to {accuracy.to} (UTC);{' '}
        <span className="font-medium text-foreground tabular-nums">{formatShare(totals.keptShare)}</span> kept
        unchanged.
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel
          title="Reliability"
          description={
            "Each band's stated confidence against the share kept unchanged; the number is how many were reviewed. On the dashed diagonal the two agree." +
            (calibration.length > 0
              ? " The orange steps: the confidence recalibrated on all this workspace's reviews."
              : '')
          }
        >
          <ReliabilityChart points={points} calibration={calibration} />
        </Panel>
        <Panel title="Kept unchanged by week" description="Weeks start on Monday.">
          <KeptTrendChart weeks={weeks} />
        </Panel>
      </div>
      <Panel title="By confidence band">
        <OutcomeTable label="By confidence band" groupHeading="Confidence" rows={bandRows} />
      </Panel>
      <Panel title="By answer type">
        <OutcomeTable label="By answer type" groupHeading="Answer type" rows={typeRows} />
      </Panel>
      <Panel title="By topic">
        <OutcomeTable label="By topic" groupHeading="Topic" rows={topicRows} />
      </Panel>
    </div>
  );
}

/**
 * The Accuracy page: what this workspace's reviewers did with the machine's answers, by the confidence the engine
 * stated, and the lowest confidence the evidence supports bulk-accepting at.
 */
export function AccuracySection() {
  const { currentWorkspace } = useWorkspace();
  const [period, setPeriod] = useState<AccuracyPeriod>(OFFER_PERIOD);
  const { params, error: periodError } = accuracyParams(period);
  const accuracy = useAccuracy(params);
  const exporter = useExportAccuracy();
  const data = accuracy.data;
  const empty = data !== undefined && data.totals.reviewed === 0;

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h4 className="text-base font-semibold">Accuracy{currentWorkspace ? ` in ${currentWorkspace.name}` : ''}</h4>
          <p className="mt-0.5 text-sm text-muted-foreground">
            How often reviewers kept the machine&apos;s answers as written, by the confidence it stated.
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          disabled={!params || !data || empty || exporter.isPending}
          onClick={() => {
            if (params)
              exporter.mutate(params, { onError: (e) => toastError(e, 'Could not export the accuracy rows.') });
          }}
        >
          {exporter.isPending ? <Spinner className="size-4" label="Exporting" /> : <Download aria-hidden />}
          Download CSV
        </Button>
      </div>
      <AccuracyPeriodPicker period={period} onChange={setPeriod} error={periodError} />
      {/* All time, not the period's: shown even when the period has no reviews. */}
      {data && <CalibrationSwitch calibration={data.calibration} />}
      {periodError ? null : accuracy.isPending ? (
        <p className="py-8 text-center text-sm text-muted-foreground" role="status">
          Loading accuracy...
        </p>
      ) : accuracy.isError && !data ? (
        <LoadError
          error={accuracy.error}
          fallback="Could not load the accuracy figures."
          onRetry={() => void accuracy.refetch()}
        />
      ) : empty ? (
        <EmptyState
          icon={<Gauge aria-hidden />}
          title="No reviewed machine answers in this period"
          description="The figures appear here as reviewers approve, edit or replace the machine's answers in this workspace's assessments: each review counts from the day it ends."
        />
      ) : data ? (
        <AccuracyBody accuracy={data} busy={accuracy.isPlaceholderData} />
      ) : null}
    </div>
  );
}
