// Finding orders: search by order or pet id as you type, whether an order is
// complete, and a ship date range (local days, both ends included).

import { useId } from 'react';
import { useAppStore } from '../../store-context.tsx';
import {
  SEARCHABLE,
  type CompleteFilter,
  type SearchMode,
  type SearchScope,
} from './order-table.ts';
import { DEFAULT_ORDERS_QUERY } from './orders-slice.ts';

export function OrderFilters() {
  const query = useAppStore((state) => state.ordersQuery);
  const setQuery = useAppStore((state) => state.setOrdersQuery);
  const clear = useAppStore((state) => state.clearOrdersFilters);
  const searchId = useId();
  const hintId = useId();
  const problemId = useId();
  const datesProblemId = useId();
  const badSearch = !SEARCHABLE.test(query.search.trim());
  const badRange = query.shipFrom !== '' && query.shipTo !== '' && query.shipTo < query.shipFrom;
  const filtered =
    query.search !== DEFAULT_ORDERS_QUERY.search ||
    query.scope !== DEFAULT_ORDERS_QUERY.scope ||
    query.mode !== DEFAULT_ORDERS_QUERY.mode ||
    query.complete !== DEFAULT_ORDERS_QUERY.complete ||
    query.shipFrom !== '' ||
    query.shipTo !== '';

  return (
    <div role="search" aria-label="Find orders" className="order-filters">
      <div className="filter-field filter-search">
        <label htmlFor={searchId}>Search by order or pet ID</label>
        <input
          id={searchId}
          type="search"
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          value={query.search}
          aria-invalid={badSearch || undefined}
          aria-describedby={badSearch ? `${hintId} ${problemId}` : hintId}
          onChange={(event) => setQuery({ search: event.target.value })}
        />
        <p id={hintId} className="hint">
          Digits of the ID; results show as you type.
        </p>
        {badSearch && (
          <p id={problemId} className="field-problem">
            IDs are whole numbers: use digits only.
          </p>
        )}
      </div>
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
      <fieldset className="filter-dates" aria-describedby={badRange ? datesProblemId : undefined}>
        <legend>Ship date (local days)</legend>
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
      <button type="button" onClick={clear} aria-disabled={!filtered || undefined}>
        Clear search and filters
      </button>
    </div>
  );
}
