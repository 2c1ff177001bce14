// Finding orders, in the toolbar: a search field for order or pet ids (as
// you type), then "Filters", which opens the rest: where to look, how to
// match, whether an order is complete, a ship date range (local days, both
// ends included), and what changed since the last refresh (new, changed,
// gone). The button counts the filters in use.

import { useId, useRef, type KeyboardEvent } from 'react';
import { Popover } from '../../components/popover.tsx';
import { useNow } from '../../components/use-now.ts';
import { timeZoneName } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { useCommandHandler, useCommands } from '../commands/command-registry.tsx';
import {
  SEARCHABLE,
  type CompleteFilter,
  type SearchMode,
  type SearchScope,
} from './table/order-table.ts';
import { DEFAULT_ORDERS_QUERY, type OrdersQuery } from './orders-slice.ts';
import type { ChangesFilter } from '../changes/change-lookup.ts';
import { useNothingToCompare } from '../changes/changes-summary.tsx';

/** How many of the filters behind the button differ from the defaults (the search is not one). */
export function activeFilterCount(query: OrdersQuery): number {
  return [
    query.scope !== DEFAULT_ORDERS_QUERY.scope,
    query.mode !== DEFAULT_ORDERS_QUERY.mode,
    query.complete !== DEFAULT_ORDERS_QUERY.complete,
    query.shipFrom !== '' || query.shipTo !== '',
    query.changes !== DEFAULT_ORDERS_QUERY.changes,
    query.bulkOutcome !== undefined,
  ].filter(Boolean).length;
}

/** Whether anything narrows the list: the search or a filter. */
export function isFiltered(query: OrdersQuery): boolean {
  return query.search !== DEFAULT_ORDERS_QUERY.search || activeFilterCount(query) > 0;
}

/**
 * The search field. Ctrl+F or "/" comes here (the text selected, to type
 * over); Escape clears it; Enter on an id typed in full opens that order.
 */
export function OrderSearch() {
  const search = useAppStore((state) => state.ordersQuery.search);
  const setQuery = useAppStore((state) => state.setOrdersQuery);
  const commands = useCommands();
  const inputRef = useRef<HTMLInputElement>(null);
  const searchId = useId();
  const hintId = useId();
  const problemId = useId();
  const badSearch = !SEARCHABLE.test(search.trim());

  useCommandHandler('find', () => {
    inputRef.current?.focus();
    inputRef.current?.select();
  });

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && search !== '') {
      event.preventDefault();
      event.stopPropagation();
      setQuery({ search: '' });
    } else if (event.key === 'Enter' && /^\d+$/.test(search.trim())) {
      event.preventDefault();
      commands.run('open-order', search.trim());
    }
  };

  return (
    <div role="search" aria-label="Find orders" className="order-search">
      <label htmlFor={searchId} className="visually-hidden">
        Search by order or pet ID
      </label>
      <input
        ref={inputRef}
        id={searchId}
        type="search"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        placeholder="Search order or pet ID"
        value={search}
        aria-invalid={badSearch || undefined}
        aria-describedby={badSearch ? `${hintId} ${problemId}` : hintId}
        onChange={(event) => setQuery({ search: event.target.value })}
        onKeyDown={onKeyDown}
      />
      <span id={hintId} className="visually-hidden">
        Digits of the ID; results show as you type. Enter on a whole order ID opens it; Escape
        clears the search.
      </span>
      {badSearch && (
        <p id={problemId} className="field-problem order-search-problem">
          IDs are whole numbers: use digits only.
        </p>
      )}
    </div>
  );
}

export function OrderFilters() {
  const query = useAppStore((state) => state.ordersQuery);
  const active = activeFilterCount(query);
  return (
    <Popover
      label="Filters"
      button={
        <>
          Filters
          {active > 0 && <span className="count-badge"> {active}</span>}
        </>
      }
      {...(active > 0 ? { buttonName: `Filters, ${active} in use` } : {})}
      className="order-filters"
      panelClassName="order-filters-panel"
    >
      <FilterFields />
    </Popover>
  );
}

function FilterFields() {
  const query = useAppStore((state) => state.ordersQuery);
  const setQuery = useAppStore((state) => state.setOrdersQuery);
  const clear = useAppStore((state) => state.clearOrdersFilters);
  const datesProblemId = useId();
  // Only for the zone's name (it changes with summer time).
  const now = useNow(60_000);
  const changesHintId = useId();
  const environment = useAppStore((state) => state.activeEnvironment);
  const nothingToCompare = useNothingToCompare(environment);
  const badRange = query.shipFrom !== '' && query.shipTo !== '' && query.shipTo < query.shipFrom;

  return (
    <>
      <label className="filter-field">
        Look in
        <select
          value={query.scope}
          onChange={(event) => setQuery({ scope: event.target.value as SearchScope })}
        >
          <option value="any">Order ID or pet ID</option>
          <option value="id">Order ID only</option>
          <option value="petId">Pet ID only</option>
        </select>
      </label>
      <label className="filter-field">
        Match
        <select
          value={query.mode}
          onChange={(event) => setQuery({ mode: event.target.value as SearchMode })}
        >
          <option value="contains">Anywhere in the ID</option>
          <option value="starts-with">Start of the ID</option>
        </select>
      </label>
      <label className="filter-field">
        Complete
        <select
          value={query.complete}
          onChange={(event) => setQuery({ complete: event.target.value as CompleteFilter })}
        >
          <option value="all">All orders</option>
          <option value="complete">Complete</option>
          <option value="not-complete">Not complete</option>
        </select>
      </label>
      <label className="filter-field">
        Changes
        <select
          value={query.changes}
          aria-describedby={nothingToCompare ? changesHintId : undefined}
          onChange={(event) => setQuery({ changes: event.target.value as ChangesFilter })}
        >
          <option value="all">All orders</option>
          <option value="new">New since the last refresh</option>
          <option value="changed">Changed since the last refresh</option>
          <option value="gone">Gone since the last refresh</option>
        </select>
      </label>
      {nothingToCompare && (
        <p id={changesHintId} className="filter-hint">
          {nothingToCompare}
        </p>
      )}
      <fieldset className="filter-dates" aria-describedby={badRange ? datesProblemId : undefined}>
        {/* The zone the status bar names: one word for the same clock. */}
        <legend>Ship date (days in {timeZoneName(now)})</legend>
        <label>
          From
          <input
            type="date"
            value={query.shipFrom}
            aria-invalid={badRange || undefined}
            onChange={(event) => setQuery({ shipFrom: event.target.value })}
          />
        </label>
        <label>
          To
          <input
            type="date"
            value={query.shipTo}
            aria-invalid={badRange || undefined}
            onChange={(event) => setQuery({ shipTo: event.target.value })}
          />
        </label>
        {badRange && (
          <p id={datesProblemId} className="field-problem">
            The “to” day is before the “from” day, so no order matches.
          </p>
        )}
      </fieldset>
      <button type="button" onClick={clear} aria-disabled={!isFiltered(query) || undefined}>
        Clear search and filters
      </button>
    </>
  );
}
