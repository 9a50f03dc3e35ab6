import { useState } from 'react';
import { BarChart3, Gauge } from 'lucide-react';
import { AUTOMATION_CONFIDENCE_MIN, type AnalyticsView } from '../../../../common/schemas/admin';
import { useCan } from '../../../app/me/use-can';
import { Badge } from '../../../components/ui/badge';
import { LoadError } from '../../../components/ui/load-error';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/format';
import { useAnalytics } from '../api/get-analytics';
import { freshnessNote, freshnessValue } from '../library-freshness';
import { AccuracySection } from './accuracy-section';
import { AnswerTypeMixChart, QuestionsPerDayChart } from './analytics-charts';
import { Panel } from './panel';
import { SectionHeader } from './section-header';

const PERIODS = [7, 30, 90] as const;
type Period = (typeof PERIODS)[number];

function StatCard({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className="rounded-xl border bg-background p-4">
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <p className="mt-1 text-2xl font-semibold tracking-tight tabular-nums">{value}</p>
      <p className="mt-1 text-xs text-muted-foreground">{note}</p>
    </div>
  );
}

function UnansweredList({ analytics }: { analytics: AnalyticsView }) {
  const groups = analytics.topUnanswered;
  if (groups.length === 0) {
    return <p className="text-sm text-muted-foreground">No unanswered questions in this period.</p>;
  }
  const most = Math.max(...groups.map((g) => g.count));
  return (
    <ol className="grid gap-3" aria-label="Top unanswered topics">
      {groups.map((group) => (
        <li key={`${group.kind}:${group.key}`} className="grid gap-1">
          <div className="flex items-center gap-2 text-sm">
            <span className="min-w-0 flex-1 truncate font-medium" title={group.label}>
              {group.label}
            </span>
            {group.kind === 'question' && <Badge variant="outline">Question</Badge>}
            <span className="text-muted-foreground tabular-nums">
              {formatNumber(group.count)} {group.count === 1 ? 'question' : 'questions'}
            </span>
          </div>
          <div className="h-1.5 overflow-hidden rounded-full bg-muted" aria-hidden>
            <div className="h-full rounded-full bg-red-400" style={{ width: `${(group.count / most) * 100}%` }} />
          </div>
          {group.kind === 'topic' && (
            <p className="truncate text-xs text-muted-foreground" title={group.examples.join('\n')}>
              e.g. {group.examples.map((e) => `“${e}”`).join(', ')}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

function AnalyticsBody({ analytics, busy }: { analytics: AnalyticsView; busy: boolean }) {
  const rate = analytics.automationRate;
  const confidence = analytics.averageConfidence;
  return (
    <div className={cn('grid gap-4 transition-opacity', busy && 'opacity-60')} aria-busy={busy || undefined}>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <StatCard
          label="Questions Asked"
          value={formatNumber(analytics.questionsAsked)}
          note={`by ${formatNumber(analytics.activeUsers)} ${analytics.activeUsers === 1 ? 'person' : 'people'}`}
        />
        <StatCard
          label="Automation Rate"
          value={rate === null ? '–' : `${String(rate)}%`}
          note={`${formatNumber(analytics.automatedAnswers)} answered from the library or generated at ≥ ${AUTOMATION_CONFIDENCE_MIN}% confidence`}
        />
        <StatCard
          label="Assessments Completed"
          value={formatNumber(analytics.assessmentsCompleted)}
          note="Bulk assessments finished"
        />
        <StatCard
          label="Average Confidence"
          value={confidence === null ? '–' : `${String(Math.round(confidence))}%`}
          note="Across every answer given"
        />
        <StatCard
          label="Library Freshness"
          value={freshnessValue(analytics.libraryFreshness)}
          note={freshnessNote(analytics.libraryFreshness)}
        />
      </div>
      <Panel title="Questions per day" description={`Every workspace, ${analytics.from} to ${analytics.to} (UTC)`}>
        <QuestionsPerDayChart analytics={analytics} />
      </Panel>
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel title="Answer types">
          <AnswerTypeMixChart analytics={analytics} />
        </Panel>
        <Panel
          title="Top unanswered topics"
          description="Questions marked Needs Review, grouped by what they ask about"
        >
          <UnansweredList analytics={analytics} />
        </Panel>
      </div>
    </div>
  );
}

/** The organization's usage: questions, automation, assessments and the library's freshness. */
function UsageAnalytics() {
  const [days, setDays] = useState<Period>(30);
  const analytics = useAnalytics(days);
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">Every workspace of the organization.</p>
        <Select value={String(days)} onValueChange={(v) => setDays(PERIODS.find((p) => String(p) === v) ?? 30)}>
          <SelectTrigger className="w-40" aria-label="Period">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {PERIODS.map((p) => (
              <SelectItem key={p} value={String(p)}>
                Last {p} days
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {analytics.isPending ? (
        <p className="py-8 text-center text-sm text-muted-foreground" role="status">
          Loading analytics...
        </p>
      ) : analytics.isError && !analytics.data ? (
        <LoadError
          error={analytics.error}
          fallback="Could not load the analytics."
          onRetry={() => void analytics.refetch()}
        />
      ) : (
        <AnalyticsBody analytics={analytics.data} busy={analytics.isPlaceholderData} />
      )}
    </div>
  );
}

/**
 * PRODUCT "Analytics": usage statistics and performance metrics. Usage is the organization's and admins' only;
 * Accuracy is the current workspace's and managers see it too, so each part shows to whom the server would send it.
 */
export function AnalyticsTab() {
  const canUsage = useCan('analytics:read');
  const canAccuracy = useCan('accuracy:read');
  const header = (
    <SectionHeader
      title="Analytics"
      description={
        canUsage
          ? 'View usage statistics and performance metrics.'
          : "The accuracy of the machine's answers, from this workspace's reviews. Usage statistics are for admins."
      }
    />
  );
  if (canUsage && canAccuracy) {
    return (
      <div className="grid gap-6">
        {header}
        <Tabs defaultValue="usage">
          <TabsList aria-label="Analytics views" className="w-full sm:w-auto">
            <TabsTrigger value="usage">
              <BarChart3 className="size-4" aria-hidden />
              Usage
            </TabsTrigger>
            <TabsTrigger value="accuracy">
              <Gauge className="size-4" aria-hidden />
              Accuracy
            </TabsTrigger>
          </TabsList>
          <TabsContent value="usage">
            <UsageAnalytics />
          </TabsContent>
          <TabsContent value="accuracy">
            <AccuracySection />
          </TabsContent>
        </Tabs>
      </div>
    );
  }
  return (
    <div className="grid gap-6">
      {header}
      {canAccuracy ? <AccuracySection /> : <UsageAnalytics />}
    </div>
  );
}
