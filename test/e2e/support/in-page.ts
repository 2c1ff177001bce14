// Functions the end-to-end tests run inside the page (page.evaluate sends
// their source). Each stands alone: no imports, nothing from outside it. This
// file is checked with the DOM's types (tsconfig.web.json) and loaded at run
// time by path (in-page-shapes.ts), so the Node side keeps no DOM globals.
// Types only come from elsewhere: they are gone from the source that is sent.

import type { ClerkWork } from './in-page-shapes.ts';

/** Order rows wholly inside the grid's scroll area. */
export function rowsInView(): number {
  const scroller = document.querySelector('.orders-grid-scroll')!.getBoundingClientRect();
  return [...document.querySelectorAll('.orders-grid-item')].filter((row) => {
    const box = row.getBoundingClientRect();
    return box.top >= scroller.top - 0.5 && box.bottom <= scroller.bottom + 0.5;
  }).length;
}

/** How the window holds together: page scrolling, the header's box and whether it wraps. */
export function frameOf() {
  const root = document.documentElement;
  const header = document.querySelector('.app-header')!.getBoundingClientRect();
  const bar = [...document.querySelector('.header-bar')!.children].map((child) =>
    child.getBoundingClientRect(),
  );
  return {
    pageScrollsDown: root.scrollHeight > window.innerHeight,
    pageScrollsAcross: root.scrollWidth > window.innerWidth,
    pageScrolled: window.scrollY !== 0 || root.scrollTop !== 0,
    headerHeight: header.height,
    // One line: every part of the header bar shares its vertical middle.
    headerLines: new Set(bar.map((box) => Math.round(box.top + box.height / 2))).size,
  };
}

/**
 * Text that does not fit its box (cut, or ellipsed) in the grid, the header,
 * the toolbar, the status bar and the side panel's head, and whether the grid
 * needs a sideways scrollbar.
 */
export function cutOff() {
  const boxes = document.querySelectorAll(
    '.orders-grid-cell, .orders-grid-cell *, .header-bar *, .orders-toolbar *, .orders-status *, .side-panel-head *',
  );
  const cut = [...boxes]
    .filter((element) => element instanceof HTMLElement && element.offsetParent !== null)
    // Text for screen readers only is a 1px box on purpose.
    .filter((element) => !element.closest('.visually-hidden'))
    .filter((element) => element.scrollWidth > element.clientWidth + 1)
    .map((element) => `${element.className || element.tagName}: ${element.textContent}`);
  const scroller = document.querySelector('.orders-grid-scroll')!;
  return { cut, sideways: scroller.scrollWidth > scroller.clientWidth + 1 };
}

/** Where the grid's body and its header are scrolled, vertically and sideways. */
export function gridScroll() {
  const body = document.querySelector('.orders-grid-scroll')!;
  const head = document.querySelector('.orders-grid-head')!;
  // The header follows the rows moved by a transform (and by its own scroll, which it gives back).
  const moved = new DOMMatrix(getComputedStyle(head.firstElementChild!).transform).m41;
  return { top: body.scrollTop, left: body.scrollLeft, headLeft: head.scrollLeft - moved };
}

/** Scrolls the grid's body to `to` (as the clerk would with a scrollbar). */
export function scrollGrid(to: { top: number; left: number }): void {
  const body = document.querySelector('.orders-grid-scroll')!;
  body.scrollTo(to.left === -1 ? body.scrollWidth : to.left, to.top);
}

/** Whether a screen's frame scrolls its content, and whether that content fits it. */
export function screenScroll() {
  const element = document.querySelector('.screen-scroll')!;
  return {
    overflowY: getComputedStyle(element).overflowY,
    fits: element.scrollHeight <= element.clientHeight,
  };
}

/**
 * Makes the screen's content taller than any window (a spacer at the end of
 * its frame), or takes the spacer away: what a long configuration or a short
 * window does, without depending on how much a screen holds today.
 */
export function stretchScreen(on: boolean): void {
  const frame = document.querySelector('.screen-scroll')!;
  frame.querySelector('.e2e-spacer')?.remove();
  if (!on) return;
  const spacer = document.createElement('div');
  spacer.className = 'e2e-spacer';
  // Through the CSSOM, which the page's CSP allows (a style attribute in markup it refuses).
  spacer.style.height = '3000px';
  frame.append(spacer);
}

/** The page's Content-Security-Policy, as its meta element says. */
export function contentSecurityPolicy(): string {
  return document
    .querySelector('meta[http-equiv="Content-Security-Policy"]')!
    .getAttribute('content')!;
}

/** Puts a style attribute in markup for a moment: the CSP must refuse it (and say so). */
export function tryInlineStyle(): void {
  const probe = document.createElement('div');
  probe.innerHTML = '<span style="color: red">probe</span>';
  document.body.append(probe);
  probe.remove();
}

/** Sets a key through the app's own API, as Settings would. */
export async function setStagingKey(key: string): Promise<void> {
  const result = await window.storeAdmin.keys.set('staging', key, {});
  if (!result.ok) throw new Error(result.error.message);
}

/** Points a remote environment at an address with a key, through the app's own API, as Settings would. */
export async function setUpEnvironment(setup: {
  environment: 'staging' | 'production';
  baseUrl: string;
  key: string;
}): Promise<void> {
  const api = window.storeAdmin;
  const address = await api.environments.setBaseUrl(setup.environment, setup.baseUrl);
  if (!address.ok) throw new Error(address.error.message);
  const key = await api.keys.set(setup.environment, setup.key, {});
  if (!key.ok) throw new Error(key.error.message);
}

/**
 * Starts writing down, every few milliseconds, what the window says of the
 * service: which notices the notice area shows (their kinds), the bulk
 * cancel strip's status, whether the grid's Cancel buttons are disabled and
 * whether any alert is on screen; each change once, in order. What a clerk
 * would have seen flip.
 */
export function recordNotices(): void {
  const log: { notices: string; bulk: string; cancelDisabled: boolean; alerts: number }[] = [];
  (window as unknown as { __notices: typeof log }).__notices = log;
  const read = () => {
    const notices = [...document.querySelectorAll<HTMLElement>('[data-notice]')]
      .map((notice) => notice.dataset.notice)
      .join(',');
    const bulk = document.querySelector('.bulk-status')?.textContent ?? '';
    const cancel = document.querySelector('.orders-grid-item .status-cell button');
    const cancelDisabled = cancel?.getAttribute('aria-disabled') === 'true';
    const alerts = document.querySelectorAll('[role="alert"]').length;
    const last = log.at(-1);
    if (
      last?.notices !== notices ||
      last.bulk !== bulk ||
      last.cancelDisabled !== cancelDisabled ||
      last.alerts !== alerts
    )
      log.push({ notices, bulk, cancelDisabled, alerts });
  };
  read();
  setInterval(read, 20);
}

/** What recordNotices wrote down so far, in order. */
export function recordedNotices(): {
  notices: string;
  bulk: string;
  cancelDisabled: boolean;
  alerts: number;
}[] {
  return [
    ...(
      window as unknown as {
        __notices?: { notices: string; bulk: string; cancelDisabled: boolean; alerts: number }[];
      }
    ).__notices!,
  ];
}

/** Where an element is on screen, and what is under the middle of it. */
export function boxOf(selector: string): {
  top: number;
  bottom: number;
  left: number;
  right: number;
} | null {
  const element = document.querySelector(selector);
  if (!element) return null;
  const { top, bottom, left, right } = element.getBoundingClientRect();
  return { top, bottom, left, right };
}

/**
 * How many lines the text of the first element matching `selector` takes
 * (null: no such element): its fragments on one line share a band, so the
 * bands are counted.
 */
export function linesOf(selector: string): number | null {
  const element = document.querySelector(selector);
  if (!element) return null;
  const range = document.createRange();
  range.selectNodeContents(element);
  const bands: { top: number; bottom: number }[] = [];
  for (const box of range.getClientRects()) {
    if (box.width === 0 || box.height === 0) continue;
    const middle = box.top + box.height / 2;
    if (!bands.some((band) => middle > band.top && middle < band.bottom))
      bands.push({ top: box.top, bottom: box.bottom });
  }
  return bands.length;
}

/** The order id of the grid row under a point of the window, if any. */
export function rowIdAt(point: { x: number; y: number }): string | null {
  const row = document.elementFromPoint(point.x, point.y)?.closest('[role="row"]');
  return row?.querySelector('[role="rowheader"]')?.textContent ?? null;
}

/** Reports every CSP violation the page sees to `__reportCspViolation` (exposed by the test). */
export function watchCspViolations(): void {
  document.addEventListener('securitypolicyviolation', (event) => {
    const send = (
      window as unknown as {
        __reportCspViolation(text: string, source: string, blocked: string): void;
      }
    ).__reportCspViolation;
    send(
      `${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`,
      event.sourceFile,
      event.blockedURI,
    );
  });
}

/** Resolves after two frames: what changed has been styled and painted. */
export function twoFrames(): Promise<void> {
  return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
}

export function axeLoaded(): boolean {
  return 'axe' in window;
}

/**
 * axe-core's findings of impact serious or critical (axe must be loaded): in
 * the elements matching `include` (CSS selectors; those not on the page are
 * left out), or on the whole page when none is given or none is there.
 */
export async function axeSeriousFindings(include: readonly string[] = []) {
  interface AxeApi {
    run(
      context: Document | { include: string[][] },
      options: object,
    ): Promise<{
      violations: {
        id: string;
        impact?: string | null;
        help: string;
        nodes: { target: unknown[] }[];
      }[];
    }>;
  }
  const axe = (window as unknown as { axe: AxeApi }).axe;
  const present = include.filter((selector) => document.querySelector(selector) !== null);
  const result = await axe.run(
    present.length > 0 ? { include: present.map((selector) => [selector]) } : document,
    {
      resultTypes: ['violations'],
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
    },
  );
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

/**
 * A clerk's work in Production through the app's own API, as its screens
 * would do it: the address and key, a refresh, a cancel, a mark with a note,
 * a project's domain waiting on DNS, and a bulk cancel started (the
 * environment itself is chosen on screen, where the window follows it).
 */
export async function clerkWork(work: {
  baseUrl: string;
  key: string;
  cancel: string;
  mark: string;
  bulk: string[];
  project: string;
}): Promise<void> {
  const api = window.storeAdmin;
  const must = <T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }) => {
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  };
  must(await api.environments.setBaseUrl('production', work.baseUrl));
  must(await api.keys.set('production', work.key, {}));
  must(await api.orders.list('production'));
  must(await api.orders.cancel('production', work.cancel));
  must(await api.reviewMarks.set('production', work.mark, { reviewed: true, note: 'Call back' }));
  const { project } = must(await api.domains.addProject(work.project));
  must(await api.domains.saveSettings(project.id, { target: 'proxy.platform.example' }));
  must(
    await api.domains.saveProgress(project.id, {
      domain: 'shop.example.com',
      step: 'configure-dns',
      preconditions: { paidPlan: true, dnsAccess: true, deployed: true },
      updatedAt: Date.now(),
    }),
  );
  must(await api.bulkCancel.start('production', work.bulk));
}

/** What the app holds of the clerk's work in Production now, read through its own API. */
export async function clerkWorkNow(): Promise<ClerkWork> {
  const api = window.storeAdmin;
  const must = <T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }) => {
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  };
  const state = must(await api.app.getState());
  const cached = must(await api.orders.cached('production'));
  const bulk = must(await api.bulkCancel.status('production'));
  const results = must(await api.bulkCancel.results('production'));
  const projects = must(await api.domains.projects());
  const domains: Record<string, string> = {};
  for (const project of projects) {
    const workspace = must(await api.domains.workspace(project.id));
    for (const progress of Object.values(workspace.progress))
      domains[`${project.name}: ${progress.domain}`] = progress.step;
  }
  return {
    activeEnvironment: state.activeEnvironment,
    productionAddress: state.environments.find((view) => view.id === 'production')?.baseUrl,
    cachedCount: cached.found ? cached.list.count : undefined,
    cancelLog: must(await api.cancelLog.list('production')).map((entry) => ({
      orderId: entry.orderId,
      result: entry.result,
    })),
    marks: Object.fromEntries(
      Object.entries(must(await api.reviewMarks.list('production'))).map(([id, mark]) => [
        id,
        { reviewed: mark.reviewed, note: mark.note },
      ]),
    ),
    bulk: bulk && {
      status: bulk.status,
      total: bulk.total,
      answered: results.map((result) => result.orderId),
      answersOnTheirWay: bulk.answersOnTheirWay,
    },
    projects: projects.map((project) => project.name),
    domains,
  };
}
