// The one line after each refresh, in the orders toolbar beside the search
// and filters: what changed since the refresh before ("+120 new, 35 gone,
// 12 changed since 09:12"), in a polite live region so it is heard once the
// list is in. (The status bar under the grid has no room left for it at
// 1100 px: it would cut off the refresh line.)

import type { EnvironmentId } from '../../../../shared/environments.ts';
import { useNow } from '../../components/use-now.ts';
import { useAppStore } from '../../store-context.tsx';
import { summaryWords } from './change-words.ts';
import './changes.css';

export function ChangesSummary({ environment }: { environment: EnvironmentId }) {
  const changes = useAppStore((state) => state.changes[environment]);
  const list = useAppStore((state) => state.orders[environment]?.list);
  // "since 09:12" becomes "since 21 Nov 09:12" once the day has turned.
  const now = useNow(60_000);
  const view = changes?.view;
  let text: string | undefined;
  let first = false;
  if (list && !list.partial && changes?.listAt === list.receivedAt && view) {
    if (view.kind === 'compared' && view.summary.at === list.receivedAt)
      text = summaryWords(view.summary, now);
    else if (view.kind === 'nothing-to-compare' && view.reason === 'first-list') {
      text = 'Changes show from the next refresh';
      first = true;
    }
  }
  return (
    <p
      role="status"
      aria-label="Changes since the last refresh"
      className={first ? 'changes-line muted' : 'changes-line'}
    >
      {text}
    </p>
  );
}
