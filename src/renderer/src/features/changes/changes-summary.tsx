// The one line after each refresh, in the orders toolbar beside the search
// and filters: what changed since the refresh before ("+120 new, 35 gone,
// 12 changed since 09:12"), in a polite live region so it is heard once the
// list is in. (The status bar under the grid has no room left for it at
// 1100 px: it would cut off the refresh line.) Before there is a list to
// compare with, the Changes filter says so, where changes are looked for.

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
  // A first list has nothing to compare with: that is said where changes are looked for (the
  // Changes filter), not here, where it would mean nothing.
  if (list && !list.partial && changes?.listAt === list.receivedAt && view) {
    if (view.kind === 'compared' && view.summary.at === list.receivedAt)
      text = summaryWords(view.summary, now);
  }
  return (
    <p role="status" aria-label="Changes since the last refresh" className="changes-line">
      {text}
    </p>
  );
}

/** Said beside the Changes filter while there is nothing to compare with; undefined once there is. */
export function useNothingToCompare(environment: EnvironmentId): string | undefined {
  const view = useAppStore((state) => state.changes[environment]?.view);
  if (view?.kind !== 'nothing-to-compare') return undefined;
  return view.reason === 'first-list'
    ? 'Changes show from the next refresh: this is the first list of this service here.'
    : 'Changes show from the next refresh.';
}
