// What the orders tests share: finding the grid, its rows and an order's row,
// and narrowing the list to one order, all by roles and names as a clerk (or a
// screen reader) finds them.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, onTestFinished } from 'vitest';
import type { renderApp } from '../../support/test-app.tsx';
import type { TestOrderStatus, TestSandbox } from '../../support/test-app-shapes.ts';

export type User = ReturnType<typeof renderApp>['user'];

export function firstOrderId(sandbox: TestSandbox, status: TestOrderStatus): string {
  const id = sandbox.orderIds({ status, limit: 1 })[0];
  if (id === undefined) throw new Error(`the sandbox has no ${status} order`);
  return id;
}

/** The grid of an environment's orders, once it shows rows. */
/** The grid once it shows a whole list (rows still arriving make it busy). */
export async function findGrid(environment = 'Sandbox'): Promise<HTMLElement> {
  const grid = await screen.findByRole('grid', { name: `${environment} orders` });
  await waitFor(() => {
    expect(bodyRows(grid).length).toBeGreaterThan(0);
    expect(grid.getAttribute('aria-busy')).toBeNull();
  });
  return grid;
}

/** The order rows rendered now (the header row left out). */
export function bodyRows(grid: HTMLElement): HTMLElement[] {
  return within(grid)
    .getAllByRole('row')
    .filter((row) => row.getAttribute('aria-rowindex') !== '1');
}

/** The order ids of the rendered rows, top to bottom. */
export function shownIds(grid: HTMLElement): string[] {
  return bodyRows(grid).map((row) => within(row).getByRole('rowheader').textContent ?? '');
}

export function rowOf(grid: HTMLElement, id: string): HTMLElement {
  const header = within(grid).getByRole('rowheader', { name: id });
  return header.closest<HTMLElement>('[role="row"]')!;
}

/** Opens "Filters" in the toolbar (if it is not open), where the filters beyond the search are. */
export async function openFilters(user: User): Promise<HTMLElement> {
  const toggle = screen.getByRole('button', { name: /^Filters/ });
  if (toggle.getAttribute('aria-expanded') !== 'true') await user.click(toggle);
  return screen.getByRole('group', { name: 'Filters' });
}

/** Narrows the list to orders whose id starts with `id`, so its row is on screen. */
export async function showOrder(user: User, grid: HTMLElement, id: string): Promise<HTMLElement> {
  await openFilters(user);
  await user.selectOptions(screen.getByRole('combobox', { name: 'Look in' }), 'Order ID only');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Match' }), 'Start of the ID');
  const search = screen.getByRole('searchbox', { name: 'Search by order or pet ID' });
  await user.clear(search);
  await user.type(search, id);
  return waitFor(() => rowOf(grid, id));
}

/** The text of an element with runs of white space made single. */
export function text(element: Element | null): string {
  return (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** Node's blob registry, loaded by name so the web tsconfig does not follow it. */
const NODE_BUFFER = 'node:buffer';

export interface Download {
  readonly name: string;
  /** The file's text, byte order mark included. */
  readonly text: Promise<string>;
}

/**
 * Records the files the app offers for download: an export is a link the app
 * clicks, so the test reads the link's Blob instead of following it.
 */
export async function captureDownloads(): Promise<Download[]> {
  const { resolveObjectURL } = (await import(/* @vite-ignore */ NODE_BUFFER)) as {
    resolveObjectURL(url: string): Blob | undefined;
  };
  const downloads: Download[] = [];
  const capture = (event: MouseEvent) => {
    const link = event.target;
    if (!(link instanceof HTMLAnchorElement) || !link.download) return;
    event.preventDefault();
    const blob = resolveObjectURL(link.href);
    downloads.push({
      name: link.download,
      // Decoded keeping a byte order mark, which Blob.text() would drop.
      text: blob
        ? blob
            .arrayBuffer()
            .then((bytes) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes))
        : Promise.reject(new Error(`no file behind ${link.href}`)),
    });
  };
  document.addEventListener('click', capture, true);
  onTestFinished(() => document.removeEventListener('click', capture, true));
  return downloads;
}
