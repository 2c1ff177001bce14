// What the app's pages did wrong while a test ran: an error a page threw and
// nothing caught, and anything a page did against its Content-Security-Policy.
// Both kinds of end-to-end app check this when they end, by the same rules
// (the harness's startE2EApp, the whole app's launchApp through PageProblems),
// and fail the test on any problem the test did not say it expected, naming
// each one seen.

import type { ConsoleMessage } from 'playwright-core';

/** Chromium's word on the console for each violation ("Refused to apply inline style because …"). */
export function isCspMessage(text: string): boolean {
  return /Content Security Policy/i.test(text);
}

/**
 * Whether a violation counts against the app: whether its code caused it.
 * axe-core, which the tests inject through the DevTools protocol, compiles its
 * message templates with new Function: those evals come from no file of the
 * app (the page's CSP rightly refuses them) and are not the app's. `appFiles`
 * is where the app's page and its scripts are (its folder, as a URL).
 */
export function violationIsTheApp(source: string, blocked: string, appFiles: string): boolean {
  return blocked !== 'eval' || (appFiles !== '' && source.startsWith(appFiles));
}

/** What was blocked, from Chromium's console message: an eval, or something else. */
export function blockedByMessage(text: string): string {
  return /evaluate a string/.test(text) ? 'eval' : '';
}

/** The folder a page's document is in, as a URL: where the app's own files are. */
export function folderOf(url: string | undefined): string {
  if (!url || url.startsWith('about:')) return '';
  try {
    return new URL('.', url).href;
  } catch {
    return '';
  }
}

export class PageProblems {
  readonly #seen: string[] = [];
  /** Of #seen, how many a check has already named (each is named once). */
  #named = 0;
  readonly #expected: { readonly pattern: RegExp; met: boolean; named: boolean }[] = [];

  /** An error a page threw that nothing caught. */
  threw(message: string): void {
    this.#seen.push(`the page threw: ${message}`);
  }

  /** A violation of the page's policy, kept when the app caused it (see violationIsTheApp). */
  violated(text: string, source: string, blocked: string, appFiles: string): void {
    if (violationIsTheApp(source, blocked, appFiles))
      this.#seen.push(`Content-Security-Policy violation: ${text} (${source || 'no source'})`);
  }

  /** A console message: kept when it is Chromium saying a page broke its policy. */
  console(message: ConsoleMessage, appFiles: string): void {
    const text = message.text();
    if (!isCspMessage(text)) return;
    this.violated(text, message.location().url, blockedByMessage(text), appFiles);
  }

  /** Everything seen so far, as the check names it, in order. */
  seen(): readonly string[] {
    return [...this.#seen];
  }

  /**
   * A test that makes a page throw or break its policy on purpose says so:
   * what matches `pattern` does not fail the check, and the check fails if
   * nothing did (an expected problem that never came is a test that proves
   * nothing).
   */
  expect(pattern: RegExp): void {
    this.#expected.push({ pattern, met: false, named: false });
  }

  /**
   * Throws if a page threw or broke its policy unexpectedly, naming what was
   * seen, or if an expected problem never came. Each problem is named once:
   * a second check after a failed one names only what came since.
   */
  check(): void {
    const fresh = this.#seen.slice(this.#named);
    this.#named = this.#seen.length;
    const unexpected = fresh.filter((problem) => {
      const expectation = this.#expected.find(({ pattern }) => pattern.test(problem));
      if (expectation) expectation.met = true;
      return !expectation;
    });
    const missing = this.#expected.filter((expectation) => !expectation.met && !expectation.named);
    for (const expectation of missing) expectation.named = true;
    const lines = [
      ...unexpected,
      ...missing.map(({ pattern }) => `expected a page problem matching ${pattern}, none came`),
    ];
    if (lines.length > 0)
      throw new Error(`The app's pages went wrong:\n- ${lines.join('\n- ')}`, {
        cause: { seen: this.seen() },
      });
  }
}
