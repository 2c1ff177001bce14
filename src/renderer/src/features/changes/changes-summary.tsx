// The one line after each refresh in the orders status bar: what changed
// since the refresh before ("+120 new, 35 gone, 12 changed since 09:12"), a
// polite live region so it is heard once the list is in.

import type { EnvironmentId } from '../../../../shared/environments.ts';
import { useAppStore } from '../../store-context.tsx';
import type { LoadedOrders } from '../orders/orders-slice.ts';
import { summaryWords } from './change-words.ts';
import './changes.css';

export function ChangesSummary({
  environment,
  list,
  now,
}: {
  environment: EnvironmentId;
  list: LoadedOrders | undefined;
  now: number;
}) {
  const changes = useAppStore((state) => state.changes[environment]);
  const view = changes?.view;
  let text: string | undefined;
  if (list && !list.partial && changes?.listAt === list.receivedAt && view) {
    if (view.kind === 'compared' && view.summary.at === list.receivedAt)
      text = summaryWords(view.summary, now);
    else if (view.kind === 'nothing-to-compare' && view.reason === 'first-list')
      text = 'Changes show from the next refresh';
  }
  return (
    <p role="status" aria-label="Changes since the last refresh" className="changes-line">
      {text}
    </p>
  );
}
