// Every screen and dialog the end-to-end tests reach is checked the same way,
// in the light and the dark theme (the system setting, emulated): axe-core
// finds no serious or critical accessibility problem, and a screenshot goes
// to docs/screenshots (npm run screenshots) or a temporary folder. Steps in
// between that need no picture are checked with axe alone.

import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { SCREENSHOTS } from './app.ts';
import { seriousAxeFindings, type AxeFinding } from './axe.ts';
import { inPage } from './in-page-shapes.ts';

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** Serious and critical findings per theme, over every check of the run. */
export const axeFindings: Record<Theme, AxeFinding[]> = { light: [], dark: [] };
/** The screens and dialogs checked per theme. */
export const axeChecks: Record<Theme, string[]> = { light: [], dark: [] };

/** One line for the test's output: how many checks, and the findings per theme. */
export function axeSummary(file: string): string {
  return `axe (${file}): ${axeChecks.light.length} screens and dialogs per theme; serious or critical findings: light ${axeFindings.light.length}, dark ${axeFindings.dark.length}`;
}

/**
 * Checks the screen (or dialog) on show in both themes: no serious or
 * critical axe finding and, unless `screenshot` is false, a screenshot
 * `<name>-light.png` / `<name>-dark.png`. Leaves the page in the light theme.
 */
export async function checkScreen(
  page: Page,
  name: string,
  { screenshot = true }: { screenshot?: boolean } = {},
): Promise<void> {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    // Two frames: the theme's colours applied and painted before anything is read.
    await page.evaluate(inPage.twoFrames);
    const findings = await seriousAxeFindings(page);
    axeChecks[theme].push(name);
    axeFindings[theme].push(...findings);
    expect(findings, `axe, ${name} in the ${theme} theme`).toEqual([]);
    if (screenshot) await page.screenshot({ path: join(SCREENSHOTS, `${name}-${theme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
