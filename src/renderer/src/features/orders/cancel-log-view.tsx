// Every cancel sent from this computer to one environment, newest first,
// with what came back, and the whole log as a CSV file.

import { useId, useState } from 'react';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import type { CancelLogEntry } from '../../../../shared/orders-local.ts';
import { saveTextFile, fileStamp } from '../../components/save-file.ts';
import { formatCount } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { cancelLogCsv } from './orders-csv.ts';
import { formatMoment } from './time-words.ts';

/** More rows than this are left to the CSV: the table stays quick to read and to render. */
const SHOWN_ENTRIES = 500;

const EMPTY_LOG: readonly CancelLogEntry[] = [];

export function resultWords(entry: CancelLogEntry): string {
  switch (entry.result) {
    case 'cancelled':
      return 'Cancelled';
    case 'not-found':
      return 'Not found';
    case 'gone':
      return 'Gone — may or may not have been cancelled';
    case 'already-shipped':
      return 'Already shipped';
    case 'failed':
      return entry.delivery === 'unknown'
        ? 'Failed — may have reached the service'
        : entry.delivery === 'not-sent'
          ? 'Failed — not sent'
          : 'Failed — refused';
  }
}

export function CancelLogView({ environment, now }: { environment: EnvironmentId; now: number }) {
  const entries = useAppStore((state) => state.orders[environment]?.cancelLog ?? EMPTY_LOG);
  const loadCancelLog = useAppStore((state) => state.loadCancelLog);
  const [open, setOpen] = useState(false);
  const [exported, setExported] = useState<string | undefined>();
  const regionId = useId();
  const label = ENVIRONMENT_LABELS[environment];
  const newestFirst = entries.slice(-SHOWN_ENTRIES).reverse();

  const toggle = () => {
    if (!open) void loadCancelLog(environment);
    setOpen(!open);
  };

  const exportCsv = () => {
    if (entries.length === 0) return;
    const name = `cancel-log-${environment}-${fileStamp(Date.now())}.csv`;
    saveTextFile(name, [cancelLogCsv(entries)], 'text/csv');
    setExported(`Exported ${formatCount(entries.length)} log entries to ${name}.`);
  };

  return (
    <section className="cancel-log" aria-label={`Cancel log — ${label}`}>
      <h3>
        <button
          type="button"
          className="disclosure"
          aria-expanded={open}
          aria-controls={regionId}
          onClick={toggle}
        >
          <span aria-hidden="true" className="disclosure-mark">
            {open ? '▾ ' : '▸ '}
          </span>
          Cancel log — {label} ({formatCount(entries.length)}{' '}
          {entries.length === 1 ? 'entry' : 'entries'})
        </button>
      </h3>
      <div id={regionId} hidden={!open}>
        {open && (
          <>
            <p className="hint">
              Every cancel sent from this computer to {label}, newest first. Kept on this computer.
            </p>
            <div className="field-row">
              <button
                type="button"
                onClick={exportCsv}
                aria-disabled={entries.length === 0 || undefined}
              >
                Export cancel log as CSV
              </button>
              <span role="status" className="muted">
                {exported}
              </span>
            </div>
            {entries.length === 0 ? (
              <p className="empty">No cancels have been sent to {label} from this computer.</p>
            ) : (
              <div className="log-wrap">
                <table className="cancel-log-table">
                  <caption className="visually-hidden">
                    Cancel log for {label}, newest first
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Order</th>
                      <th scope="col">Result</th>
                      <th scope="col">Message</th>
                    </tr>
                  </thead>
                  <tbody>
                    {newestFirst.map((entry, index) => (
                      <tr key={`${entry.at}:${entry.orderId}:${index}`}>
                        <td>
                          <time dateTime={new Date(entry.at).toISOString()}>
                            {formatMoment(entry.at, now)}
                          </time>
                        </td>
                        <th scope="row" className="mono">
                          {entry.orderId}
                        </th>
                        <td>{resultWords(entry)}</td>
                        <td>{entry.message}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {entries.length > SHOWN_ENTRIES && (
                  <p className="note">
                    Showing the newest {formatCount(SHOWN_ENTRIES)} of {formatCount(entries.length)}
                    ; the CSV has them all.
                  </p>
                )}
              </div>
            )}
          </>
        )}
      </div>
    </section>
  );
}
