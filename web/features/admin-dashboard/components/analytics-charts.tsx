import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { AnalyticsView } from '../../../../common/schemas/admin';
import { ANSWER_TYPES, type AnswerType } from '../../../../common/schemas/qa';
import { ANSWER_TYPE_LABELS } from '../../../components/knowledge/answer-type-badge';
import { formatNumber, formatPercent } from '../../../lib/format';

// Days are UTC calendar days on the server; showing them in UTC keeps a bar on the day it counts.
const dayTick = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayLong = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const formatDay = (date: string, format: Intl.DateTimeFormat) => format.format(new Date(`${date}T00:00:00Z`));

/**
 * Library answers green, generated amber and unanswered red, like their badges; drafts indigo, which a donut keeps
 * apart from the green more clearly than their badge's teal.
 */
export const ANSWER_TYPE_COLORS: Record<AnswerType, string> = {
  canonical: '#10b981',
  generated: '#f59e0b',
  draft: '#6366f1',
  unknown: '#ef4444',
};

const AUTOMATED_COLOR = '#4f46e5';
const OTHER_COLOR = '#c7d2fe';
const AXIS = { fontSize: 12, fill: '#64748b' };

/** Questions per day, split into those answered without anyone stepping in and the rest. */
export function QuestionsPerDayChart({ analytics }: { analytics: AnalyticsView }) {
  const data = analytics.questionsPerDay.map((d) => ({
    date: d.date,
    automated: d.automated,
    other: d.questions - d.automated,
  }));
  return (
    <div
      role="img"
      aria-label={`Questions asked per day from ${analytics.from} to ${analytics.to}: ${formatNumber(analytics.questionsAsked)} in total`}
      className="h-64 w-full"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis
            dataKey="date"
            tickFormatter={(d: string) => formatDay(d, dayTick)}
            tick={AXIS}
            tickLine={false}
            axisLine={{ stroke: '#e2e8f0' }}
            minTickGap={24}
          />
          <YAxis allowDecimals={false} tick={AXIS} tickLine={false} axisLine={false} />
          <Tooltip
            cursor={{ fill: '#f1f5f9' }}
            labelFormatter={(label) => (typeof label === 'string' ? formatDay(label, dayLong) : '')}
          />
          <Legend
            iconType="circle"
            iconSize={8}
            wrapperStyle={{ fontSize: 12 }}
            formatter={(value: string) => <span className="text-slate-600">{value}</span>}
          />
          {/* No grow-in animation: the figures are the point, and a screenshot should not catch them half-drawn. */}
          <Bar
            dataKey="automated"
            name="Automated"
            stackId="q"
            fill={AUTOMATED_COLOR}
            maxBarSize={28}
            isAnimationActive={false}
          />
          <Bar
            dataKey="other"
            name="Other answers"
            stackId="q"
            fill={OTHER_COLOR}
            radius={[3, 3, 0, 0]}
            maxBarSize={28}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** How the period's questions were answered: library, generated, draft, or not at all. */
export function AnswerTypeMixChart({ analytics }: { analytics: AnalyticsView }) {
  const total = analytics.questionsAsked;
  const slices = ANSWER_TYPES.map((type) => ({
    type,
    name: ANSWER_TYPE_LABELS[type],
    value: analytics.answerTypes[type],
  }));
  return (
    <div className="flex flex-wrap items-center gap-5">
      <div role="img" aria-label="Answer type mix" className="size-36 shrink-0">
        {total === 0 ? (
          <div className="flex size-full items-center justify-center rounded-full border-[18px] border-muted" />
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            <PieChart>
              <Pie
                data={slices.filter((s) => s.value > 0)}
                dataKey="value"
                nameKey="name"
                innerRadius="62%"
                outerRadius="100%"
                paddingAngle={1}
                stroke="none"
                isAnimationActive={false}
              >
                {slices
                  .filter((s) => s.value > 0)
                  .map((s) => (
                    <Cell key={s.type} fill={ANSWER_TYPE_COLORS[s.type]} />
                  ))}
              </Pie>
              <Tooltip />
            </PieChart>
          </ResponsiveContainer>
        )}
      </div>
      <ul className="grid min-w-48 flex-1 gap-2 text-sm" aria-label="Answer types">
        {slices.map((s) => (
          <li key={s.type} className="flex items-center gap-2">
            <span
              aria-hidden
              className="size-2.5 shrink-0 rounded-full"
              style={{ backgroundColor: ANSWER_TYPE_COLORS[s.type] }}
            />
            <span className="flex-1 whitespace-nowrap">{s.name}</span>
            <span className="font-medium tabular-nums">{formatNumber(s.value)}</span>
            <span className="w-12 text-right text-muted-foreground tabular-nums">
              {total > 0 ? formatPercent((s.value / total) * 100) : '–'}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
