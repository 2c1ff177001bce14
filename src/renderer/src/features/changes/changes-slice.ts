// Changes since the last refresh, per environment, as main worked them out
// (`orders:changes`): asked for each time a whole list is on screen, so the
// summary, the row marks, the Changes filter and the details follow the list.

import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { OrderChangesView } from '../../../../shared/order-changes.ts';
import type { SliceCreator } from '../../store.ts';

export interface EnvironmentChanges {
  /** The time of the list they were asked for. */
  readonly listAt: number;
  /** Undefined while being asked for. */
  readonly view?: OrderChangesView;
}

export interface ChangesSlice {
  readonly changes: Partial<Record<EnvironmentId, EnvironmentChanges>>;
  /** Asks main what changed for the list received at `listAt` (once per list). */
  loadChanges(environment: EnvironmentId, listAt: number): Promise<void>;
}

export const createChangesSlice: SliceCreator<ChangesSlice> = (api) => (set, get) => ({
  changes: {},

  async loadChanges(environment, listAt) {
    if (get().changes[environment]?.listAt === listAt) return;
    set({ changes: { ...get().changes, [environment]: { listAt } } });
    const result = await api.changes.get(environment);
    // Another list may have come meanwhile: its own request stands.
    if (get().changes[environment]?.listAt !== listAt) return;
    // Unknown is said as nothing to compare: the list itself is not at stake.
    const view: OrderChangesView = result.ok
      ? result.value
      : { kind: 'nothing-to-compare', environment, reason: 'unreadable' };
    set({ changes: { ...get().changes, [environment]: { listAt, view } } });
  },
});
