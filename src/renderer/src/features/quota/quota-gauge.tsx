// The gauge: a bar of the requests left in the window, coloured by how much is
// left, with the figures and a word in its accessible value (and beside it on
// screen), so colour is never the only signal.

import { formatCount } from '../../format.ts';
import { LEVEL_WORDS, type QuotaLevel } from './quota-meter-model.ts';

const WIDTH = 64;
const HEIGHT = 10;

export interface QuotaGaugeProps {
  readonly remaining: number;
  readonly limit: number;
  readonly level: QuotaLevel;
  /** Figures of an earlier answer: drawn in grey, without the level's word. */
  readonly stale?: boolean;
  /** Added to the accessible value when the figures are from an earlier answer. */
  readonly note?: string;
}

export function QuotaGauge({ remaining, limit, level, stale = false, note }: QuotaGaugeProps) {
  const share = limit > 0 ? Math.min(1, Math.max(0, remaining / limit)) : 0;
  const left = `${formatCount(remaining)} of ${formatCount(limit)} requests left`;
  const valueText = stale
    ? `${left}${note ? ` ${note}` : ''}`
    : `${left}: ${LEVEL_WORDS[level]}${note ? ` (${note})` : ''}`;
  return (
    <span
      className={`quota-gauge quota-level-${stale ? 'stale' : level}`}
      role="meter"
      aria-label="Requests left"
      aria-valuemin={0}
      aria-valuemax={limit}
      aria-valuenow={remaining}
      aria-valuetext={valueText}
      data-level={stale ? 'stale' : level}
    >
      <svg
        width={WIDTH}
        height={HEIGHT}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        aria-hidden="true"
        focusable="false"
      >
        <rect
          className="quota-gauge-track"
          x={0.5}
          y={0.5}
          width={WIDTH - 1}
          height={HEIGHT - 1}
          rx={3}
        />
        {share > 0 && (
          <rect
            className="quota-gauge-fill"
            x={1}
            y={1}
            width={Math.max(2, share * (WIDTH - 2))}
            height={HEIGHT - 2}
            rx={2.5}
          />
        )}
      </svg>
    </span>
  );
}
