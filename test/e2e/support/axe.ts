// axe-core in the page under test: its source injected once per page load,
// then run over the given parts of the page. Only serious and critical
// findings are returned, each with the rule, what it asks and where.

import axe from 'axe-core';
import type { Page } from 'playwright-core';

export interface AxeFinding {
  readonly rule: string;
  readonly impact: string;
  readonly help: string;
  readonly targets: readonly string[];
}

/** Serious and critical findings in the elements matching `include` (CSS selectors). */
export async function seriousAxeFindings(
  page: Page,
  include: readonly string[],
): Promise<AxeFinding[]> {
  // Strings, not functions: this tsconfig has no DOM types, and the page has no Node.
  if (!(await page.evaluate(`'axe' in window`))) await page.evaluate(axe.source);
  const findings = (await page.evaluate(`(async () => {
    const present = ${JSON.stringify(include)}.filter((s) => document.querySelector(s) !== null);
    const results = await window.axe.run(
      { include: present.map((s) => [s]) },
      { resultTypes: ['violations'] },
    );
    return results.violations.map((v) => ({
      rule: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  })()`)) as AxeFinding[];
  return findings.filter(
    (finding) => finding.impact === 'serious' || finding.impact === 'critical',
  );
}
