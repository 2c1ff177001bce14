// The quota meter of the active environment's key, in the header, on one line
// that never wraps: requests left of the limit with a gauge and a word, and
// when the window resets. Figures from an earlier answer (the service cannot
// be reached, or their window has passed) read "at HH:MM", in grey, with no
// level word. A hold or a ban is said once, in the notice area; here the word
// says "paused" or "banned". The plan, this computer's count for today and a
// chart of the last minutes are behind "Details".

import type { FailureKind } from '../../../../shared/failures.ts';
import type { QuotaView } from '../../../../shared/quota.ts';
import { Popover } from '../../components/popover.tsx';
import { formatCount, formatHourMinute, formatMomentWithSeconds } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { isOffline } from '../connectivity/connectivity-slice.ts';
import { useSecondTicks } from './meter-clock.tsx';
import { QuotaChart } from './quota-chart.tsx';
import { QuotaGauge } from './quota-gauge.tsx';
import {
  formatCountdown,
  LEVEL_WORDS,
  quotaMeterState,
  type QuotaFigures,
  type QuotaMeterState,
} from './quota-meter-model.ts';
import { describeLocalCount, describePlanShort } from './quota-text.ts';
import './quota.css';

export function QuotaLine() {
  const environment = useAppStore((state) => state.activeEnvironment);
  const quota = useAppStore((state) => state.quotas[environment]);
  const offline = useAppStore((state) => isOffline(state, environment));
  // A 401 answer carries another bucket's headers: no plan or figures are read from it.
  // Without a key to send (none, or one kept from a new address) there are no figures either.
  const keyFailure = useAppStore((state) => state.orders[environment]?.keyFailure?.kind);
  const keyRefused = keyFailure !== undefined;
  const ticking = quota !== undefined && (quota.known || quota.holdUntil !== undefined);
  const tick = useSecondTicks(ticking);
  // The tick may lag by up to a second; the figures' own time is a floor.
  const now = Math.max(tick, quota?.observedAt ?? 0);
  const state = keyRefused ? ({ kind: 'unknown' } as const) : quotaMeterState(quota, now);
  const figures = state.kind === 'unknown' ? undefined : state.figures;
  // Figures of an earlier answer say nothing about now: no colour, no "plenty".
  const stale = figures !== undefined && (offline || figures.windowPassed);
  const asOf = stale && quota?.observedAt !== undefined ? quota.observedAt : undefined;

  return (
    <section className="quota-meter" aria-label="Quota">
      {figures?.remaining !== undefined && figures.level !== undefined && (
        <QuotaGauge
          remaining={figures.remaining}
          limit={figures.limit}
          level={figures.level}
          {...(stale
            ? {
                stale: true,
                note: asOf === undefined ? 'an earlier answer' : `at ${formatHourMinute(asOf)}`,
              }
            : {})}
        />
      )}
      <p className="quota-summary">
        <Summary figures={figures} state={state} keyFailure={keyFailure} asOf={asOf} now={now} />
      </p>
      <QuotaDetails
        quota={keyRefused ? undefined : quota}
        figures={figures}
        now={now}
        sentToday={quota?.sentToday ?? 0}
      />
    </section>
  );
}

function Summary({
  figures,
  state,
  keyFailure,
  asOf,
  now,
}: {
  figures: QuotaFigures | undefined;
  state: QuotaMeterState;
  /** Only a missing or refused key is kept as a key failure. */
  keyFailure: FailureKind | undefined;
  asOf: number | undefined;
  now: number;
}) {
  if (keyFailure === 'unauthorized') return <span>Quota unknown: the key was refused</span>;
  if (keyFailure !== undefined) return <span>Quota unknown: no key is sent</span>;
  if (!figures || figures.remaining === undefined) {
    return <span>{figures ? `Limit ${formatCount(figures.limit)}` : 'Quota unknown'}</span>;
  }
  const left = `${formatCount(figures.remaining)} of ${formatCount(figures.limit)} left`;
  if (asOf !== undefined || figures.windowPassed) {
    return (
      <span className="quota-stale">
        {left} {asOf === undefined ? 'at the last answer' : `at ${formatHourMinute(asOf)}`}
      </span>
    );
  }
  const word =
    state.kind === 'banned'
      ? 'banned'
      : state.kind === 'limited'
        ? 'paused'
        : figures.level === undefined
          ? undefined
          : LEVEL_WORDS[figures.level];
  return (
    <>
      <span>{left}</span>
      {state.kind === 'open' && figures.resetAt !== undefined && (
        <span className="quota-reset">
          {' '}
          · resets in{' '}
          <span className="quota-countdown">{formatCountdown(figures.resetAt - now)}</span>
        </span>
      )}
      {word && (
        <span
          className={`quota-word quota-level-${state.kind === 'open' ? figures.level : 'used-up'}`}
        >
          {word}
        </span>
      )}
    </>
  );
}

/** "Quota details": the plan, today's count and the chart, in a panel over the page. */
function QuotaDetails(props: DetailsProps) {
  return (
    <Popover
      label="Quota details"
      button="Details"
      buttonName="Quota details"
      buttonClassName="quota-details-toggle small-button"
      className="quota-details"
      panelClassName="quota-panel"
    >
      <DetailsBody {...props} />
    </Popover>
  );
}

interface DetailsProps {
  /** Undefined when the key was refused: nothing the service said applies to it. */
  readonly quota: QuotaView | undefined;
  readonly figures: QuotaFigures | undefined;
  readonly now: number;
  readonly sentToday: number;
}

function DetailsBody({ quota, figures, now, sentToday }: DetailsProps) {
  const limit = figures?.limit;
  return (
    <>
      <p className="quota-panel-title">Requests in the last 15 minutes</p>
      <QuotaChart history={quota?.history ?? []} limit={limit} now={now} />
      <ul className="quota-facts">
        {figures && <li>{describePlanShort(figures.plan)}</li>}
        <li>{describeLocalCount(sentToday, figures?.plan.perDay)}</li>
        {quota?.observedAt !== undefined && limit !== undefined && (
          <li>
            Figures from the service&apos;s answer at{' '}
            {formatMomentWithSeconds(quota.observedAt, now)}
            {figures?.resetAt === undefined
              ? '.'
              : `; its window resets at ${formatMomentWithSeconds(figures.resetAt, now)}.`}
          </li>
        )}
      </ul>
      <p>
        The service&apos;s figures are for its current window. The daily figure counts only the
        requests this computer sent with this key since local midnight; requests from elsewhere are
        not in it.
      </p>
    </>
  );
}
