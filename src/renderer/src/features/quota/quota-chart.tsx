// The last 15 minutes of one key: requests this computer sent per 10 seconds
// (bars) and the requests left the service reported (line). The picture has a
// text alternative with the same totals.

import { formatCount } from '../../format.ts';
import type { QuotaHistoryPoint } from '../../../../shared/quota.ts';
import { CHART_SLOTS, summarizeHistory } from './quota-meter-model.ts';
import { describeHistory } from './quota-text.ts';

const WIDTH = 360;
const SLOT = WIDTH / CHART_SLOTS;
const LEFT_TOP = 14;
const LEFT_HEIGHT = 44;
const SENT_TOP = 76;
const SENT_HEIGHT = 30;
const HEIGHT = 124;

export interface QuotaChartProps {
  readonly history: readonly QuotaHistoryPoint[];
  readonly limit: number | undefined;
  readonly now: number;
}

export function QuotaChart({ history, limit, now }: QuotaChartProps) {
  const summary = summarizeHistory(history, now);
  const top = limit ?? Math.max(1, ...summary.slots.map((slot) => slot.remaining ?? 0));
  const barScale = Math.max(1, summary.busiest);
  const leftPoints = summary.slots.flatMap((slot, i) =>
    slot.remaining === undefined
      ? []
      : [
          {
            at: slot.at,
            x: (i + 0.5) * SLOT,
            y: LEFT_TOP + (1 - Math.min(1, slot.remaining / top)) * LEFT_HEIGHT,
          },
        ],
  );

  return (
    <figure className="quota-chart">
      <svg
        role="img"
        aria-label={describeHistory(summary, limit)}
        width={WIDTH}
        height={HEIGHT}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      >
        <text className="quota-chart-label" x={0} y={10}>
          Requests left (of {formatCount(top)})
        </text>
        <line
          className="quota-chart-axis"
          x1={0}
          x2={WIDTH}
          y1={LEFT_TOP + LEFT_HEIGHT}
          y2={LEFT_TOP + LEFT_HEIGHT}
        />
        {leftPoints.length > 1 && (
          <polyline
            className="quota-chart-left"
            points={leftPoints.map(({ x, y }) => `${x},${y}`).join(' ')}
          />
        )}
        {leftPoints.map(({ at, x, y }) => (
          <circle key={at} className="quota-chart-left-dot" cx={x} cy={y} r={2} />
        ))}
        <text className="quota-chart-label" x={0} y={SENT_TOP - 4}>
          Sent per 10 s (most {formatCount(summary.busiest)})
        </text>
        <line
          className="quota-chart-axis"
          x1={0}
          x2={WIDTH}
          y1={SENT_TOP + SENT_HEIGHT}
          y2={SENT_TOP + SENT_HEIGHT}
        />
        {summary.slots.map((slot, i) =>
          slot.sent === 0 ? null : (
            <rect
              key={slot.at}
              className="quota-chart-sent"
              x={i * SLOT + 0.5}
              width={SLOT - 1}
              y={SENT_TOP + SENT_HEIGHT - (slot.sent / barScale) * SENT_HEIGHT}
              height={(slot.sent / barScale) * SENT_HEIGHT}
            />
          ),
        )}
        <text className="quota-chart-label" x={0} y={HEIGHT - 2}>
          15 min ago
        </text>
        <text className="quota-chart-label" x={WIDTH} y={HEIGHT - 2} textAnchor="end">
          now
        </text>
      </svg>
      <figcaption className="quota-chart-caption">
        Line: requests left as the service reported them. Bars: requests this computer sent.
      </figcaption>
    </figure>
  );
}
