// The bulk cancel of the environment, as a strip between the toolbar and the
// grid: what it is doing, progress per outcome, the time left from the quota,
// and the controls. A finished or stopped job's strip can be closed for good
// (main remembers it with the job); its results stay in the cancel log. Why a
// job waits (no connection, a ban, a refused key) is said once, in the notice
// area; here only that it waits.

import {
  OUTCOME_LABELS,
  SHOWN_OUTCOME_LABELS,
  type BulkCancelSnapshot,
  type BulkOutcome,
  type ShownOutcome,
} from '../../../../shared/bulk-cancel.ts';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { Toast } from '../../components/toast.tsx';
import { formatCount } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { isOffline } from '../connectivity/connectivity-slice.ts';
import { useCurrentHold } from '../quota/use-hold.ts';
import { useCancelBlocked } from '../orders/use-orders-view.ts';
import { isSetUp } from '../orders/orders-slice.ts';
import { ENVIRONMENT_NAMES } from '../environments/environment-words.ts';
import './bulk-cancel.css';
import { WaitingButton } from '../../components/waiting-button.tsx';

const OUTCOMES: readonly BulkOutcome[] = [
  'cancelled',
  'already-shipped',
  'not-found',
  'gone',
  'failed',
];

/**
 * What an ended job's strip counts, each a button that shows its orders:
 * the outcomes, then what a stop left (never sent; sent with the answer lost).
 */
function endedCounts(job: BulkCancelSnapshot): [ShownOutcome, number][] {
  const notSent = job.counts.waiting - job.answersOnTheirWay - job.unanswered;
  const counts: [ShownOutcome, number][] = [
    ...OUTCOMES.map((outcome): [ShownOutcome, number] => [outcome, job.counts[outcome]]),
    ['unanswered', job.unanswered],
    ['not-sent', notSent],
  ];
  return counts.filter(([, count]) => count > 0);
}

/** "about 7 min", "under a minute", "about 2 h 10 min". */
export function durationWords(ms: number): string {
  if (ms < 60_000) return 'under a minute';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `about ${minutes} min`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * What the window knows now that bears on a job: the app's one connectivity
 * state, whether the environment is set up (an address and a key) and the
 * hold on its requests. A job says why it paused when it did; the strip says
 * what holds now, from the same state as the notice area beside it, so the
 * two never disagree.
 */
export interface JobSituation {
  /** The service cannot be reached, as the notice area says. */
  readonly offline: boolean;
  /** The environment has its address and a key (the sandbox always). */
  readonly setUp: boolean;
  /** "Staging": the environment's name in a sentence. */
  readonly label: string;
  /** Requests are held now: the key banned, or paused (a 429's wait, a used-up window). */
  readonly hold?: 'banned' | 'paused';
}

const ANSWERING: JobSituation = { offline: false, setUp: true, label: 'The environment' };

/** "1 answer still on its way", "2 answers still on their way". */
function onTheirWayWords(count: number): string {
  return count === 1
    ? '1 answer still on its way'
    : `${formatCount(count)} answers still on their way`;
}

/** What the job is doing, in words. */
export function statusWords(job: BulkCancelSnapshot, situation: JobSituation = ANSWERING): string {
  switch (job.status) {
    case 'running':
      // Waiting for its turn, it has met neither yet: the notice beside it says what holds.
      if (!situation.setUp) return `Waiting until ${situation.label} is set up.`;
      if (situation.offline)
        return 'Waiting while the service cannot be reached; it carries on by itself once it answers.';
      if (situation.hold === 'banned') return 'Waiting while the API key is banned.';
      if (situation.hold === 'paused')
        return 'Waiting while requests are paused; it carries on by itself.';
      return 'Cancelling at the pace the quota allows.';
    case 'paused':
      // A DELETE sent before the pause can still land and change the counts: not paused yet.
      if (job.answersOnTheirWay > 0) return `Pausing: ${onTheirWayWords(job.answersOnTheirWay)}.`;
      // Said before the job's own reason: no key is no key, refused or not (the notice offers
      // the way to set it up), and a service that cannot be reached cannot be resumed to.
      if (!situation.setUp) return `Paused until ${situation.label} is set up. Resume once it is.`;
      switch (job.pauseReason) {
        case 'user':
          return situation.offline
            ? 'Paused. You can resume once the service answers again.'
            : situation.hold === 'banned'
              ? 'Paused. You can resume once the ban ends.'
              : 'Paused. Nothing is sent until you resume.';
        case 'offline':
          return situation.offline
            ? 'Paused while the service cannot be reached; it tries again by itself.'
            : 'The service answers again: carrying on…';
        case 'key':
          return 'Paused: the API key was refused. Resume once the key is fixed.';
        case 'banned':
          // The ban it met may have ended (its time, or a new key): the notice then says none.
          return situation.hold === 'banned'
            ? 'Paused while the API key is banned. Resume once the ban ends.'
            : 'Paused by a ban that has ended. Resume to carry on.';
        case 'disk':
          // The notice area names the folder and the reason; here only what it means for the job.
          return 'Paused: nothing is sent while Store Admin cannot save its record of the cancels. Resume once it can save again.';
        default:
          return 'Paused.';
      }
    case 'stopped':
      if (job.answersOnTheirWay > 0) return `Stopping: ${onTheirWayWords(job.answersOnTheirWay)}.`;
      return 'Stopped. Orders not sent yet were left as they are.';
    case 'finished':
      return 'Finished.';
  }
}

/**
 * Whether Resume can do anything now: not while the environment has no key
 * (or address), nor while the service cannot be reached (a job paused by
 * that carries on by itself as soon as anything is answered; the notice's
 * Retry is the way to try now), nor while the key is banned (it would only
 * meet the ban again). The strip's sentence says which.
 */
export function canResume(job: BulkCancelSnapshot, situation: JobSituation): boolean {
  return (
    job.status === 'paused' &&
    job.pauseReason !== 'offline' &&
    situation.setUp &&
    !situation.offline &&
    situation.hold !== 'banned'
  );
}

/** Whether the job will send nothing more: its strip can be closed. */
function isOver(job: BulkCancelSnapshot): boolean {
  return job.status === 'finished' || job.status === 'stopped';
}

export function BulkCancelPanel({ environment }: { environment: EnvironmentId }) {
  const job = useAppStore((state) => state.bulkJobs[environment]);
  const pause = useAppStore((state) => state.pauseBulkCancel);
  const resume = useAppStore((state) => state.resumeBulkCancel);
  const stop = useAppStore((state) => state.stopBulkCancel);
  const dismiss = useAppStore((state) => state.dismissBulkJob);
  const exportResults = useAppStore((state) => state.exportBulkResults);
  const offline = useAppStore((state) => isOffline(state, environment));
  const setUp = useAppStore((state) => isSetUp(state, environment));
  const hold = useCurrentHold(environment);
  // A new bulk cancel of what was not sent, or of what failed, waits for what any cancel waits
  // for (no key, no answer, a ban).
  const cancelBlocked = useCancelBlocked(environment, offline);
  const retryFailed = useAppStore((state) => state.askRetryFailed);
  const cancelNotSent = useAppStore((state) => state.askCancelNotSent);
  const showOutcome = useAppStore((state) => state.showBulkOutcome);
  const shownOutcome = useAppStore((state) =>
    state.ordersQuery.bulkOutcome?.environment === environment
      ? state.ordersQuery.bulkOutcome.outcome
      : undefined,
  );
  if (!job || job.dismissed) return null;
  const situation: JobSituation = {
    offline,
    setUp,
    label: ENVIRONMENT_LABELS[environment],
    // A hold of a few seconds is waited out, and says nothing here, as in the notice area.
    ...(hold?.reason === 'banned'
      ? { hold: 'banned' }
      : hold?.failsAtOnce
        ? { hold: 'paused' }
        : {}),
  } as const;
  const done = job.total - job.counts.waiting;
  const over = isOver(job);
  // After a stop, what waits was not sent, but for the answers still on their way or lost.
  const notSent = job.counts.waiting - job.answersOnTheirWay - job.unanswered;
  return (
    // The band above names the environment on screen; the region's name says it too.
    <section className="bulk-strip" aria-label={`Bulk cancel — ${ENVIRONMENT_NAMES[environment]}`}>
      <h3 className="bulk-title">Bulk cancel</h3>
      {/* Announced when the status changes, not at every order. */}
      <StatusRegion className="bulk-status">{statusWords(job, situation)}</StatusRegion>
      {over ? (
        <span className="bulk-progress">
          {formatCount(done)} of {formatCount(job.total)} done
        </span>
      ) : (
        <label className="bulk-progress">
          <span>
            {formatCount(done)} of {formatCount(job.total)} done
            {job.etaMs !== undefined &&
            job.status === 'running' &&
            situation.setUp &&
            !situation.offline &&
            situation.hold === undefined
              ? `, ${durationWords(job.etaMs)} left`
              : ''}
          </span>
          <progress max={job.total} value={done} />
        </label>
      )}
      {over ? (
        // Each count shows its orders in the list (pressed again, all of them).
        <div role="group" aria-label="Show in the list" className="bulk-counts">
          {endedCounts(job).map(([outcome, count]) => {
            const pressed = shownOutcome === outcome;
            return (
              <button
                key={outcome}
                type="button"
                className={`bulk-count bulk-count-button bulk-${outcome}`}
                aria-pressed={pressed}
                title={pressed ? 'Show all orders' : 'Show these orders in the list'}
                onClick={() => void showOutcome(environment, pressed ? undefined : outcome)}
              >
                <span className="bulk-count-label">{SHOWN_OUTCOME_LABELS[outcome]}</span>{' '}
                <strong>{formatCount(count)}</strong>
              </button>
            );
          })}
          {job.answersOnTheirWay > 0 && (
            <span className="bulk-count">
              <span className="bulk-count-label">On their way</span>{' '}
              <strong>{formatCount(job.answersOnTheirWay)}</strong>
            </span>
          )}
        </div>
      ) : (
        <dl className="bulk-counts">
          {OUTCOMES.map((outcome) => (
            <div key={outcome} className={`bulk-count bulk-${outcome}`}>
              <dt>{OUTCOME_LABELS[outcome]}</dt>
              <dd>{formatCount(job.counts[outcome])}</dd>
            </div>
          ))}
          <div className="bulk-count">
            <dt>Waiting</dt>
            <dd>{formatCount(job.counts.waiting)}</dd>
          </div>
        </dl>
      )}
      <div className="bulk-actions">
        {over && notSent > 0 && (
          <WaitingButton waitsFor={cancelBlocked} onPress={() => void cancelNotSent(environment)}>
            Cancel the {formatCount(notSent)} not sent…
          </WaitingButton>
        )}
        {over && job.counts.failed > 0 && (
          <WaitingButton waitsFor={cancelBlocked} onPress={() => void retryFailed(environment)}>
            Retry failed…
          </WaitingButton>
        )}
        {job.status === 'running' && (
          <button type="button" onClick={() => void pause(environment)}>
            Pause
          </button>
        )}
        {canResume(job, situation) && (
          <button type="button" onClick={() => void resume(environment)}>
            Resume
          </button>
        )}
        {!over && (
          <button type="button" className="danger-button" onClick={() => void stop(environment)}>
            Stop
          </button>
        )}
        <button type="button" onClick={() => void exportResults(environment)} disabled={done === 0}>
          Export results
        </button>
        {over && (
          <button
            type="button"
            aria-label="Close bulk cancel"
            onClick={() => void dismiss(environment)}
          >
            Close
          </button>
        )}
      </div>
    </section>
  );
}

/** A bulk cancel that could not start, or a control that failed: a message that goes away. */
export function BulkCancelFailure() {
  const failure = useAppStore((state) =>
    state.bulkFlow.step === 'failed' ? state.bulkFlow.failure : undefined,
  );
  const dismiss = useAppStore((state) => state.dismissBulkFailure);
  return (
    <Toast label="Bulk cancel" tone="error" onDone={dismiss} messageKey={failure?.message}>
      {failure && <p>{failure.message}</p>}
    </Toast>
  );
}
