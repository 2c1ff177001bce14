// Hands the App's store to the components below it. Components select single
// fields (or use useShallow for several), as zustand 5 needs.

import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreState, AppStore } from './store.ts';

const StoreContext = createContext<AppStore | undefined>(undefined);

export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return <StoreContext value={store}>{children}</StoreContext>;
}

export function useAppStore<T>(selector: (state: StoreState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore is used outside <StoreProvider>.');
  return useStore(store, selector);
}
