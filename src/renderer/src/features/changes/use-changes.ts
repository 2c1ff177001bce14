// The changes of the list on screen: asked for once per whole list, and
// looked up by row for the grid's marks, the Changes filter and the details.

import { useEffect, useMemo } from 'react';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import { useAppStore } from '../../store-context.tsx';
import type { LoadedOrders } from '../orders/orders-slice.ts';
import { changeLookupOf, type ChangeLookup } from './change-lookup.ts';

/** Asks main what changed whenever a whole list is on screen, and returns the lookup for it. */
export function useOrderChanges(
  environment: EnvironmentId,
  list: LoadedOrders | undefined,
): ChangeLookup | undefined {
  const loadChanges = useAppStore((state) => state.loadChanges);
  const listAt = list && !list.partial ? list.receivedAt : undefined;
  useEffect(() => {
    if (listAt !== undefined) void loadChanges(environment, listAt);
  }, [environment, listAt, loadChanges]);
  return useChangeLookup(environment);
}

/** The lookup for the environment's list on screen; undefined until its changes are known. */
export function useChangeLookup(environment: EnvironmentId): ChangeLookup | undefined {
  const view = useAppStore((state) => state.changes[environment]?.view);
  const list = useAppStore((state) => state.orders[environment]?.list);
  return useMemo(
    () =>
      list && !list.partial ? changeLookupOf(view, list.receivedAt, list.table.count) : undefined,
    [view, list],
  );
}
