// The window's UI preferences, the one thing the renderer keeps: which of the
// grid's columns are shown and how wide the clerk made them, and the domains
// project last looked at. A store of its own with zustand's persist
// middleware at its root, in the page's localStorage, with a version and a
// migration; nothing in it is a secret or an order.

import { createContext, useContext, useState, type ReactNode } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import { z } from 'zod';

/** The grid's columns the clerk may hide or resize (the tick box and the order id always show). */
export const OPTIONAL_COLUMNS = [
  'petId',
  'quantity',
  'shipDate',
  'complete',
  'review',
  'status',
] as const;
export type OptionalColumn = (typeof OPTIONAL_COLUMNS)[number];
export const RESIZABLE_COLUMNS = ['id', ...OPTIONAL_COLUMNS] as const;
export type ResizableColumn = (typeof RESIZABLE_COLUMNS)[number];

/** A column is never made narrower or wider than this, in CSS pixels. */
export const COLUMN_WIDTH_BOUNDS = { min: 48, max: 640 } as const;

export interface UiPreferencesState {
  readonly hiddenColumns: readonly OptionalColumn[];
  /** Widths the clerk set, in CSS pixels; a column without one takes its share of the room. */
  readonly columnWidths: Partial<Record<ResizableColumn, number>>;
  readonly domainProject?: string;
  setColumnShown(column: OptionalColumn, shown: boolean): void;
  /** A width, or undefined to give the column its share again. */
  setColumnWidth(column: ResizableColumn, width: number | undefined): void;
  resetColumns(): void;
  setDomainProject(project: string): void;
}

type Saved = Pick<UiPreferencesState, 'hiddenColumns' | 'columnWidths' | 'domainProject'>;

export const UI_PREFERENCES_KEY = 'store-admin.ui-preferences';
export const UI_PREFERENCES_VERSION = 1;

const clampWidth = (width: number) =>
  Math.round(Math.min(COLUMN_WIDTH_BOUNDS.max, Math.max(COLUMN_WIDTH_BOUNDS.min, width)));

/** What is read back is checked: anything out of shape is dropped, the rest kept. */
const savedSchema = z.object({
  hiddenColumns: z
    .array(z.unknown())
    .transform((keys) => OPTIONAL_COLUMNS.filter((column) => keys.includes(column)))
    .catch([]),
  columnWidths: z
    .record(z.string(), z.unknown())
    .transform((widths) =>
      Object.fromEntries(
        RESIZABLE_COLUMNS.flatMap((column) => {
          const width = widths[column];
          return typeof width === 'number' && Number.isFinite(width)
            ? [[column, clampWidth(width)]]
            : [];
        }),
      ),
    )
    .catch({}),
  domainProject: z.string().max(48).optional().catch(undefined),
});

/**
 * Reads what an earlier version saved. Version 0 (before versions) had no
 * preferences worth keeping; anything unknown starts afresh.
 */
export function migrateUiPreferences(saved: unknown, version: number): Saved {
  if (version > UI_PREFERENCES_VERSION) return { hiddenColumns: [], columnWidths: {} };
  const parsed = savedSchema.safeParse(saved ?? {});
  return parsed.success ? parsed.data : { hiddenColumns: [], columnWidths: {} };
}

export type UiPreferences = StoreApi<UiPreferencesState>;

/** `storage`: the page's localStorage by default; a test gives its own. */
export function createUiPreferences(storage?: StateStorage): UiPreferences {
  return createStore<UiPreferencesState>()(
    persist(
      (set, get) => ({
        hiddenColumns: [],
        columnWidths: {},
        setColumnShown(column, shown) {
          const hidden = get().hiddenColumns.filter((key) => key !== column);
          set({ hiddenColumns: shown ? hidden : [...hidden, column] });
        },
        setColumnWidth(column, width) {
          const widths = { ...get().columnWidths };
          if (width === undefined) delete widths[column];
          else widths[column] = clampWidth(width);
          set({ columnWidths: widths });
        },
        resetColumns() {
          set({ hiddenColumns: [], columnWidths: {} });
        },
        setDomainProject(project) {
          set({ domainProject: project });
        },
      }),
      {
        name: UI_PREFERENCES_KEY,
        version: UI_PREFERENCES_VERSION,
        storage: createJSONStorage(() => storage ?? window.localStorage),
        partialize: (state): Saved => ({
          hiddenColumns: state.hiddenColumns,
          columnWidths: state.columnWidths,
          ...(state.domainProject !== undefined ? { domainProject: state.domainProject } : {}),
        }),
        migrate: migrateUiPreferences,
        // Checked on every read too, not only across versions: a hand-edited value cannot break the grid.
        merge: (saved, current) => ({
          ...current,
          ...migrateUiPreferences(saved, UI_PREFERENCES_VERSION),
        }),
      },
    ),
  );
}

const PreferencesContext = createContext<UiPreferences | undefined>(undefined);

export function UiPreferencesProvider({
  preferences,
  children,
}: {
  preferences?: UiPreferences;
  children: ReactNode;
}) {
  const [store] = useState(() => preferences ?? createUiPreferences());
  return <PreferencesContext value={store}>{children}</PreferencesContext>;
}

/** Outside a provider (a test of one part), preferences last as long as the page. */
let fallback: UiPreferences | undefined;

export function useUiPreferences<T>(selector: (state: UiPreferencesState) => T): T {
  const store =
    useContext(PreferencesContext) ?? (fallback ??= createUiPreferences(memoryStorage()));
  return useStore(store, selector);
}

/** A storage that keeps nothing past the page. */
export function memoryStorage(): StateStorage {
  const items = new Map<string, string>();
  return {
    getItem: (name) => items.get(name) ?? null,
    setItem: (name, value) => void items.set(name, value),
    removeItem: (name) => void items.delete(name),
  };
}
