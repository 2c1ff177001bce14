// The quota meter of the active environment's key, in the header: requests
// left of the limit with a gauge, a countdown to the reset, the plan the limit
// implies and this computer's own count for today; what is paused and why when
// the key is limited or banned; a chart of the last minutes behind "Quota
// details". State changes that matter are announced; the countdowns are not.

import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { QuotaView } from '../../../../shared/quota.ts';
import { formatClock, formatCount } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { useSecondTicks } from './meter-clock.tsx';
import { QuotaChart } from './quota-chart.tsx';
import { QuotaGauge } from './quota-gauge.tsx';
import {
  formatCountdown,
  LEVEL_WORDS,
  quotaMeterState,
  type QuotaMeterState,
} from './quota-meter-model.ts';
import {
  announceQuotaState,
  BAN_WARNING,
  describeBan,
  describeLimitReason,
  describeLocalCount,
  describePlanShort,
  describeQuota,
} from './quota-text.ts';
import { TryNow } from './try-now.tsx';
import './quota.css';

export function QuotaLine() {
  const environment = useAppStore((state) => state.activeEnvironment);
  const quota = useAppStore((state) => state.quotas[environment]);
  const ticking = quota !== undefined && (quota.known || quota.holdUntil !== undefined);
  const tick = useSecondTicks(ticking);
  // The tick may lag by up to a second; the figures' own time is a floor.
  const now = Math.max(tick, quota?.observedAt ?? 0);
  const state = quotaMeterState(quota, now);
  const figures = state.kind === 'unknown' ? undefined : state.figures;

  return (
    <section className="quota-line quota-meter" aria-label="Quota">
      <div className="quota-main">
        {figures?.remaining !== undefined && figures.level !== undefined && (
          <QuotaGauge
            remaining={figures.remaining}
            limit={figures.limit}
            level={figures.level}
            {...(figures.windowPassed ? { note: 'at the last answer' } : {})}
          />
        )}
        <p className="quota-summary">
          <Summary quota={quota} state={state} now={now} />
          {figures?.level !== undefined && (
            <span className={`quota-word quota-level-${figures.level}`}>
              {LEVEL_WORDS[figures.level]}
            </span>
          )}
        </p>
        <QuotaDetails quota={quota} limit={figures?.limit} now={now} />
      </div>
      {(figures || (quota?.sentToday ?? 0) > 0) && (
        <p className="quota-plan">
          {figures && <span>{describePlanShort(figures.plan)}</span>}
          <span>{describeLocalCount(quota?.sentToday ?? 0, figures?.plan.perDay)}</span>
        </p>
      )}
      <HoldNotice state={state} now={now} />
      {/* Always in the page, so a change is announced; it holds times of day, never a countdown. */}
      <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {announceQuotaState(state)}
      </p>
    </section>
  );
}

function Summary({
  quota,
  state,
  now,
}: {
  quota: QuotaView | undefined;
  state: QuotaMeterState;
  now: number;
}) {
  const figures = state.kind === 'unknown' ? undefined : state.figures;
  if (!figures || figures.remaining === undefined) return <span>{describeQuota(quota)}</span>;
  if (figures.windowPassed && figures.resetAt !== undefined) {
    return (
      <span>
        Quota: {formatCount(figures.remaining)} of {formatCount(figures.limit)} left at the last
        answer; the window reset at {formatClock(figures.resetAt)}
      </span>
    );
  }
  return (
    <>
      <span>{describeQuota(quota)}</span>
      {state.kind === 'open' && figures.resetAt !== undefined && (
        <span className="quota-countdown"> (in {formatCountdown(figures.resetAt - now)})</span>
      )}
    </>
  );
}

function HoldNotice({ state, now }: { state: QuotaMeterState; now: number }) {
  if (state.kind === 'limited') {
    return (
      <div className="quota-notice quota-notice-limited">
        <p>
          <strong>Requests paused.</strong> Store Admin may send again in{' '}
          <span className="quota-countdown">{formatCountdown(state.until - now)}</span> (at{' '}
          {formatClock(state.until)}).
        </p>
        <p>
          {describeLimitReason(state.reason)} {BAN_WARNING}
        </p>
        <TryNow until={state.until} banned={false} />
      </div>
    );
  }
  if (state.kind === 'banned') {
    return (
      <div className="quota-notice quota-notice-banned">
        <p>
          <strong>Key banned.</strong> {describeBan(state.until)} The ban ends in{' '}
          <span className="quota-countdown">{formatCountdown(state.until - now)}</span>.
        </p>
        <TryNow until={state.until} banned />
      </div>
    );
  }
  return null;
}

/** "Quota details": an expandable panel over the page with the chart; Escape or a click elsewhere closes it. */
function QuotaDetails({ quota, limit, now }: DetailsProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <div className="quota-details" ref={rootRef} onKeyDown={onKeyDown}>
      <button
        ref={buttonRef}
        type="button"
        className="quota-details-toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        Quota details
      </button>
      <div
        id={panelId}
        className="quota-panel"
        role="group"
        aria-label="Quota details"
        // A click inside puts the focus here, so Escape still reaches the handler above.
        tabIndex={-1}
        hidden={!open}
      >
        {open && <DetailsBody quota={quota} limit={limit} now={now} />}
      </div>
    </div>
  );
}

interface DetailsProps {
  readonly quota: QuotaView | undefined;
  readonly limit: number | undefined;
  readonly now: number;
}

function DetailsBody({ quota, limit, now }: DetailsProps) {
  return (
    <>
      <p className="quota-panel-title">Requests in the last 15 minutes</p>
      <QuotaChart history={quota?.history ?? []} limit={limit} now={now} />
      {quota?.observedAt !== undefined && limit !== undefined && (
        <p>Figures from the service&apos;s answer at {formatClock(quota.observedAt)}.</p>
      )}
      <p>
        The service&apos;s figures are for its current window. The daily figure counts only the
        requests this computer sent with this key since local midnight; requests from elsewhere are
        not in it.
      </p>
    </>
  );
}
