// Which screen the window shows. Settings are shown for one environment at a
// time, which need not be the active one.

import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { SliceCreator } from '../../store.ts';

export type Screen =
  | { readonly kind: 'orders' }
  | { readonly kind: 'domains' }
  | {
      readonly kind: 'settings';
      readonly environment: EnvironmentId;
      /** Set when another screen sent the user here, so the heading takes the focus. */
      readonly focusHeading: boolean;
    };

export interface NavigationSlice {
  readonly screen: Screen;
  showOrders(): void;
  showDomains(): void;
  /** Settings of an environment (the active one when left out). */
  showSettings(environment?: EnvironmentId, options?: { focusHeading?: boolean }): void;
}

export const createNavigationSlice: SliceCreator<NavigationSlice> = () => (set, get) => ({
  screen: { kind: 'orders' },
  showOrders() {
    set({ screen: { kind: 'orders' } });
  },
  showDomains() {
    set({ screen: { kind: 'domains' } });
  },
  showSettings(environment, options) {
    set({
      screen: {
        kind: 'settings',
        environment: environment ?? get().activeEnvironment,
        focusHeading: options?.focusHeading ?? false,
      },
    });
  },
});
