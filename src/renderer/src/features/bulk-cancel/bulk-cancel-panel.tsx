// The bulk cancel of the environment: progress per outcome, the time left
// from the quota, why it is paused, and the controls.

import type { BulkCancelSnapshot, BulkOutcome } from '../../../../shared/bulk-cancel.ts';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { useAppStore } from '../../store-context.tsx';
import { ENVIRONMENT_NAMES } from '../environments/environment-words.ts';
import { OUTCOME_WORDS } from './bulk-results-csv.ts';
import './bulk-cancel.css';

const OUTCOMES: readonly BulkOutcome[] = [
  'cancelled',
  'already-shipped',
  'not-found',
  'gone',
  'failed',
];

/** "about 7 min", "under a minute", "about 2 h 10 min". */
export function durationWords(ms: number): string {
  if (ms < 60_000) return 'under a minute';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `about ${minutes} min`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function statusWords(job: BulkCancelSnapshot): string {
  switch (job.status) {
    case 'running':
      return 'Cancelling at the pace the quota allows.';
    case 'paused':
      return job.pauseReason === 'user'
        ? 'Paused. Nothing is sent until you resume.'
        : (job.message ?? 'Paused.');
    case 'stopped':
      return 'Stopped. Orders not yet sent were left as they are.';
    case 'finished':
      return 'Finished.';
  }
}

export function BulkCancelPanel({ environment }: { environment: EnvironmentId }) {
  const job = useAppStore((state) => state.bulkJobs[environment]);
  const pause = useAppStore((state) => state.pauseBulkCancel);
  const resume = useAppStore((state) => state.resumeBulkCancel);
  const stop = useAppStore((state) => state.stopBulkCancel);
  const exportResults = useAppStore((state) => state.exportBulkResults);
  const failure = useAppStore((state) =>
    state.bulkFlow.step === 'failed' && state.bulkFlow.environment === environment
      ? state.bulkFlow.failure
      : undefined,
  );
  if (!job && !failure) return null;
  const done = job ? job.total - job.counts.waiting : 0;
  return (
    <section className="bulk-panel" aria-labelledby={`bulk-title-${environment}`}>
      <h3 id={`bulk-title-${environment}`}>Bulk cancel — {ENVIRONMENT_NAMES[environment]}</h3>
      {failure && <p className="message message-error">{failure.message}</p>}
      {job && (
        <>
          {/* Announced when the status changes, not at every order. */}
          <StatusRegion
            tone={job.status === 'paused' && job.pauseReason !== 'user' ? 'warning' : 'info'}
          >
            {statusWords(job)}
          </StatusRegion>
          <label className="bulk-progress">
            <span>
              {done.toLocaleString()} of {job.total.toLocaleString()} done
              {job.etaMs !== undefined && job.status === 'running'
                ? `, ${durationWords(job.etaMs)} left`
                : ''}
            </span>
            <progress max={job.total} value={done} />
          </label>
          <dl className="bulk-counts">
            {OUTCOMES.map((outcome) => (
              <div key={outcome} className={`bulk-count bulk-${outcome}`}>
                <dt>{OUTCOME_WORDS[outcome]}</dt>
                <dd>{job.counts[outcome].toLocaleString()}</dd>
              </div>
            ))}
            <div className="bulk-count">
              <dt>Waiting</dt>
              <dd>{job.counts.waiting.toLocaleString()}</dd>
            </div>
          </dl>
          <div className="bulk-actions">
            {job.status === 'running' && (
              <button type="button" onClick={() => void pause(environment)}>
                Pause
              </button>
            )}
            {job.status === 'paused' && (
              <button type="button" onClick={() => void resume(environment)}>
                Resume
              </button>
            )}
            {(job.status === 'running' || job.status === 'paused') && (
              <button
                type="button"
                className="danger-button"
                onClick={() => void stop(environment)}
              >
                Stop
              </button>
            )}
            <button
              type="button"
              onClick={() => void exportResults(environment)}
              disabled={done === 0}
            >
              Export results (CSV)
            </button>
          </div>
        </>
      )}
    </section>
  );
}
