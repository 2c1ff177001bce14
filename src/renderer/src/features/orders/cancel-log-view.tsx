// Every cancel sent from this computer to one environment, newest first, with
// what came back, in a side panel of its own beside the grid; the whole log
// (bulk cancels included) as a CSV file.

import { useEffect, useId, useRef } from 'react';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import { OUTCOME_LABELS } from '../../../../shared/bulk-cancel.ts';
import type { CancelLogEntry } from '../../../../shared/orders-local.ts';
import { fileStamp, saveTextFile } from '../../components/save-file.ts';
import { formatCount } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { cancelLogCsv } from './orders-csv.ts';
import { formatMomentWithSeconds } from './time-words.ts';

/** More rows than this are left to the CSV: the table stays quick to read and to render. */
const SHOWN_ENTRIES = 500;

const EMPTY_LOG: readonly CancelLogEntry[] = [];

/** The entry's result in a few words: the outcome's one name (OUTCOME_LABELS), a failure with how far it got. */
export function resultWords(entry: CancelLogEntry): string {
  if (entry.result !== 'failed') return OUTCOME_LABELS[entry.result];
  return entry.delivery === 'unknown'
    ? 'Failed — may have reached the service'
    : entry.delivery === 'not-sent'
      ? 'Failed — not sent'
      : 'Failed — refused';
}

/**
 * What the entry's message adds to its result, if anything: a cancel's
 * "Order 7 was cancelled." and a 409's "has already shipped … cannot be
 * reversed" only say the result again; the service's own words after them
 * are kept.
 */
export function resultDetail(entry: CancelLogEntry): string | undefined {
  if (entry.result !== 'cancelled' && entry.result !== 'already-shipped') return entry.message;
  const said = /The service said: .*$/s.exec(entry.message);
  return said?.[0];
}

export interface CancelLogPanelProps {
  readonly environment: EnvironmentId;
  readonly now: number;
  readonly onClose: () => void;
  /** Escape: back to the list, the log staying open (as the order's details do). */
  readonly onLeave: () => void;
  /** Says where an export went (a transient message). */
  readonly onExported: (message: string) => void;
}

export function CancelLogPanel({
  environment,
  now,
  onClose,
  onLeave,
  onExported,
}: CancelLogPanelProps) {
  const entries = useAppStore((state) => state.orders[environment]?.cancelLog ?? EMPTY_LOG);
  const loadCancelLog = useAppStore((state) => state.loadCancelLog);
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const label = ENVIRONMENT_LABELS[environment];
  const newestFirst = entries.slice(-SHOWN_ENTRIES).reverse();

  // Opened: the log as main has it now, and the focus on its heading.
  useEffect(() => {
    void loadCancelLog(environment);
    headingRef.current?.focus();
  }, [environment, loadCancelLog]);

  const exportCsv = () => {
    if (entries.length === 0) return;
    const name = `cancel-log-${environment}-${fileStamp(Date.now())}.csv`;
    saveTextFile(name, [cancelLogCsv(entries)], 'text/csv');
    onExported(`Exported ${formatCount(entries.length)} cancel log entries to ${name}.`);
  };

  return (
    // eslint-disable-next-line jsx-a11y-x/no-noninteractive-element-interactions -- Escape from any control inside goes back to the list
    <aside
      className="side-panel side-panel-wide cancel-log"
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onLeave();
      }}
    >
      <div className="side-panel-head">
        <h3 id={headingId} ref={headingRef} tabIndex={-1}>
          Cancel log — {label}
        </h3>
        <button
          type="button"
          className="small-button"
          aria-label="Close cancel log"
          onClick={onClose}
        >
          Close
        </button>
      </div>
      {/* An empty log says so once, below. */}
      {entries.length > 0 && (
        <p className="hint">
          {formatCount(entries.length)} {entries.length === 1 ? 'cancel' : 'cancels'} sent from this
          computer to {label}, bulk cancels included, newest first. Kept on this computer.
        </p>
      )}
      <div className="field-row">
        <button type="button" onClick={exportCsv} aria-disabled={entries.length === 0 || undefined}>
          Export cancel log as CSV
        </button>
      </div>
      {entries.length === 0 ? (
        <p className="empty">No cancels have been sent to {label} from this computer.</p>
      ) : (
        <div className="log-wrap">
          <table className="cancel-log-table">
            <caption className="visually-hidden">Cancel log for {label}, newest first</caption>
            <thead>
              <tr>
                <th scope="col" className="numeric">
                  Order
                </th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((entry, index) => {
                const detail = resultDetail(entry);
                return (
                  <tr key={`${entry.at}:${entry.orderId}:${index}`}>
                    <th scope="row" className="numeric">
                      {entry.orderId}
                    </th>
                    <td className="log-result-cell">
                      {/* The result and its time on one line while there is room; the time goes under it when not. */}
                      <span className="log-result-line">
                        <span className="log-result">{resultWords(entry)}</span>{' '}
                        <time className="log-time" dateTime={new Date(entry.at).toISOString()}>
                          {formatMomentWithSeconds(entry.at, now)}
                        </time>
                      </span>
                      {detail !== undefined && <span className="log-message">{detail}</span>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {entries.length > SHOWN_ENTRIES && (
            <p className="note">
              Showing the newest {formatCount(SHOWN_ENTRIES)} of {formatCount(entries.length)}; the
              CSV has them all.
            </p>
          )}
        </div>
      )}
    </aside>
  );
}
