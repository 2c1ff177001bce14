// Which environment is active and what the main process says about each one
// (address, key status). The main process owns the truth; this mirrors it.

import type { EnvironmentId, RemoteEnvironmentId } from '../../../../shared/environments.ts';
import type { AppState, EnvironmentView } from '../../../../shared/ipc-contract.ts';
import type { KeyStatus } from '../../../../shared/key-status.ts';
import { followLocale } from '../../format.ts';
import type { SliceCreator } from '../../store.ts';

export type AppLoad =
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready' }
  | { readonly kind: 'failed'; readonly message: string };

export interface EnvironmentsSlice {
  readonly appLoad: AppLoad;
  readonly activeEnvironment: EnvironmentId;
  readonly environments: readonly EnvironmentView[];
  /** Why the last switch did not happen, in plain words. */
  readonly switchProblem?: string;
  loadApp(): Promise<void>;
  selectEnvironment(environment: EnvironmentId): Promise<void>;
  applyEnvironmentView(view: EnvironmentView): void;
  applyKeyStatus(status: KeyStatus): void;
}

function withView(
  views: readonly EnvironmentView[],
  view: EnvironmentView,
): readonly EnvironmentView[] {
  return views.map((existing) => (existing.id === view.id ? view : existing));
}

export const createEnvironmentsSlice: SliceCreator<EnvironmentsSlice> = (api) => (set, get) => {
  /**
   * The clerk's switches so far. An answer to a question asked before the
   * latest switch (the app's first state, an earlier switch) does not move
   * the switcher: the latest switch's own answer does. Without this, a switch
   * made while the app was still loading flicked back to the environment it
   * started on, and stayed there when the load's answer came last.
   */
  let switches = 0;
  /** The environment on screen changes, and the orders' search and filters with it. */
  const show = (environment: EnvironmentId) => {
    get().switchOrdersQuery(get().activeEnvironment, environment);
    set({ activeEnvironment: environment });
  };
  const applyAppState = (state: AppState, askedAt: number) => {
    if (askedAt === switches) show(state.activeEnvironment);
    set({ environments: state.environments, switchProblem: undefined });
  };

  return {
    appLoad: { kind: 'loading' },
    activeEnvironment: 'sandbox',
    environments: [],

    async loadApp() {
      const askedAt = switches;
      const result = await api.app.getState();
      if (!result.ok) {
        set({ appLoad: { kind: 'failed', message: result.error.message } });
        return;
      }
      // Before any screen shows: every date, time and number on them follows it.
      followLocale(result.value.locale);
      applyAppState(result.value, askedAt);
      get().applyStorageProblem(result.value.storageProblem ?? null);
      for (const state of result.value.connectivity ?? []) get().applyConnectivity(state);
      set({ appLoad: { kind: 'ready' } });
      // A switch made meanwhile loads its own quota.
      if (askedAt === switches) await get().loadQuota(result.value.activeEnvironment);
    },

    async selectEnvironment(environment) {
      const previous = get().activeEnvironment;
      if (environment === previous) return;
      const askedAt = ++switches;
      // Shown at once; the main process confirms (or the switch is undone below).
      show(environment);
      set({ switchProblem: undefined });
      const result = await api.environments.select(environment);
      // A later switch has the last word, and says its own problem if it has one.
      if (askedAt !== switches) return;
      if (!result.ok) {
        show(previous);
        set({ switchProblem: result.error.message });
        return;
      }
      applyAppState(result.value, askedAt);
      await get().loadQuota(result.value.activeEnvironment);
    },

    applyEnvironmentView(view) {
      set({ environments: withView(get().environments, view) });
    },

    applyKeyStatus(status) {
      const environment: RemoteEnvironmentId = status.environment;
      const view = get().environments.find((candidate) => candidate.id === environment);
      if (view) get().applyEnvironmentView({ ...view, keySet: status.set, key: status });
    },
  };
};
