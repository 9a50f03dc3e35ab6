import {
  CartesianGrid,
  LabelList,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from 'recharts';
import { formatNumber, formatPercent } from '../../../lib/format';
import {
  reliabilitySummary,
  type CalibrationPoint,
  type ReliabilityPoint,
  type TrendPoint,
} from '../accuracy-chart-data';

const AXIS = { fontSize: 12, fill: '#64748b' };
const GRID = '#e2e8f0';
const POINT_COLOR = '#4f46e5';
const DIAGONAL_COLOR = '#94a3b8';
const CALIBRATION_COLOR = '#d97706';
const PERCENT_TICKS = [0, 25, 50, 75, 100];
/** A 0–100% axis, as each chart's share kept (and the reliability chart's stated confidence) is drawn. */
const PERCENT_AXIS = {
  domain: [0, 100],
  ticks: PERCENT_TICKS,
  tickFormatter: formatPercent,
  tick: AXIS,
  tickLine: false,
} as const;

// Weeks are UTC days on the server; showing them in UTC keeps a point on the week it counts.
const weekTick = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const formatWeek = (day: string) => weekTick.format(new Date(`${day}T00:00:00Z`));

function TooltipBox({ lines }: { lines: string[] }) {
  return (
    <div className="rounded-md border bg-background px-3 py-2 text-xs shadow-md">
      {lines.map((line, i) => (
        <p key={line} className={i === 0 ? 'font-medium' : 'text-muted-foreground'}>
          {line}
        </p>
      ))}
    </div>
  );
}

function ReliabilityTooltip({ active, payload }: TooltipContentProps) {
  const hovered = active ? (payload[0]?.payload as Partial<ReliabilityPoint> | undefined) : undefined;
  // The recalibration's line has no tooltip of its own: its points carry no band.
  if (hovered?.band === undefined) return null;
  const point = hovered as ReliabilityPoint;
  return (
    <TooltipBox
      lines={[
        point.label,
        `Stated confidence ${formatPercent(point.confidence)}`,
        `Kept unchanged ${formatPercent(point.kept)} (${formatNumber(point.unchanged)} of ${formatNumber(point.reviewed)})`,
      ]}
    />
  );
}

/**
 * Each band's mean stated confidence against the share its reviewers kept unchanged, with the number reviewed beside
 * each point. The diagonal is where the two agree: a point below it means the engine claims more than it delivers.
 */
export function ReliabilityChart({
  points,
  calibration = [],
}: {
  points: readonly ReliabilityPoint[];
  /** The workspace's own recalibration as a step line, when it has enough reviews; none otherwise. */
  calibration?: readonly CalibrationPoint[];
}) {
  const label =
    reliabilitySummary(points) +
    (calibration.length > 0 ? " The orange step line is the confidence recalibrated on this workspace's reviews." : '');
  return (
    <div role="img" aria-label={label} className="h-72 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <ScatterChart margin={{ top: 24, right: 24, bottom: 16, left: 0 }}>
          <CartesianGrid stroke={GRID} />
          <XAxis
            type="number"
            dataKey="confidence"
            name="Stated confidence"
            {...PERCENT_AXIS}
            axisLine={{ stroke: GRID }}
            label={{ value: 'Stated confidence', position: 'insideBottom', offset: -10, ...AXIS }}
          />
          <YAxis type="number" dataKey="kept" name="Kept unchanged" {...PERCENT_AXIS} axisLine={false} width={48} />
          <ReferenceLine
            segment={[
              { x: 0, y: 0 },
              { x: 100, y: 100 },
            ]}
            stroke={DIAGONAL_COLOR}
            strokeDasharray="4 4"
            ifOverflow="extendDomain"
          />
          <Tooltip content={ReliabilityTooltip} cursor={{ strokeDasharray: '3 3' }} />
          {/* No grow-in animation: the figures are the point, and a screenshot should not catch them half-drawn. */}
          {/* Points without a joining line: beside the diagonal, a second line would read as another reference. */}
          <Scatter data={[...points]} fill={POINT_COLOR} isAnimationActive={false}>
            <LabelList
              dataKey="reviewed"
              position="top"
              offset={8}
              formatter={(value) => (typeof value === 'number' ? formatNumber(value) : '')}
              style={{ fontSize: 11, fill: '#334155' }}
            />
          </Scatter>
          {calibration.length > 0 && (
            <Scatter
              data={[...calibration]}
              line={{ stroke: CALIBRATION_COLOR, strokeWidth: 2 }}
              shape={() => <g />}
              fill={CALIBRATION_COLOR}
              isAnimationActive={false}
            />
          )}
        </ScatterChart>
      </ResponsiveContainer>
    </div>
  );
}

function TrendTooltip({ active, payload }: TooltipContentProps) {
  const week = active ? (payload[0]?.payload as TrendPoint | undefined) : undefined;
  if (!week) return null;
  return (
    <TooltipBox
      lines={[
        `Week of ${formatWeek(week.weekStart)}`,
        week.kept === null ? 'Nothing reviewed' : `Kept unchanged ${formatPercent(week.kept)}`,
        `${formatNumber(week.reviewed)} reviewed`,
      ]}
    />
  );
}

/** The share kept unchanged week by week (weeks start on Monday). */
export function KeptTrendChart({ weeks }: { weeks: readonly TrendPoint[] }) {
  const described = weeks
    .filter((w) => w.kept !== null)
    .map((w) => `week of ${formatWeek(w.weekStart)}: ${formatPercent(w.kept ?? 0)}`);
  return (
    <div
      role="img"
      aria-label={`Share kept unchanged by week${described.length > 0 ? `: ${described.join('; ')}` : ''}`}
      className="h-56 w-full"
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={[...weeks]} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke={GRID} />
          <XAxis
            dataKey="weekStart"
            tickFormatter={formatWeek}
            tick={AXIS}
            tickLine={false}
            axisLine={{ stroke: GRID }}
            minTickGap={24}
          />
          <YAxis {...PERCENT_AXIS} axisLine={false} width={48} />
          <Tooltip content={TrendTooltip} />
          <Line
            type="monotone"
            dataKey="kept"
            name="Kept unchanged"
            stroke={POINT_COLOR}
            strokeWidth={2}
            dot={{ r: 4, fill: POINT_COLOR, strokeWidth: 0 }}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
