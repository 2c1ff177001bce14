// axe-core in the page under test, the one way every end-to-end test runs it:
// its script injected once per page load, then run over the page (or the
// given parts of it). Only serious and critical findings are returned, each
// with the rule, what it asks and where.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { inPage, type AxeFinding } from './in-page-shapes.ts';

export type { AxeFinding };

/** axe-core's own script, read from its package. */
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * Serious and critical findings, in the elements matching `include` (CSS
 * selectors) or on the whole page. The script goes in through the DevTools
 * protocol (page.evaluate), which the page's Content-Security-Policy does not
 * govern, so the app's own CSP stays as strict as shipped.
 */
export async function seriousAxeFindings(
  page: Page,
  include: readonly string[] = [],
): Promise<AxeFinding[]> {
  if (!(await page.evaluate(inPage.axeLoaded))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(inPage.axeSeriousFindings, include);
}
