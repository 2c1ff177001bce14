// The whole app's check at its end, proven to fire: a run whose window threw
// an error nothing caught, or broke the page's Content-Security-Policy, fails
// at close or stop, naming what was seen; a test that causes one on purpose
// says so and passes, and fails if what it expected never came. Every other
// whole-app test leans on this check. Needs `npm run build`.

import { afterEach, describe, expect, it } from 'vitest';
import {
  appHome,
  canRunApp,
  launchApp,
  type AppHome,
  type AppRun,
} from './support/electron-app.ts';
import { inPage } from './support/in-page-shapes.ts';

let home: AppHome | undefined;
let run: AppRun | undefined;

afterEach(async () => {
  // A test that failed before its own stop: the app ended all the same, its problems already said.
  await run?.stop().catch(() => undefined);
  home?.remove();
  run = undefined;
  home = undefined;
});

async function openApp(): Promise<{ run: AppRun; page: Awaited<ReturnType<AppRun['page']>> }> {
  home = appHome();
  run = await launchApp({ home });
  return { run, page: await run.page() };
}

/** Makes the page throw outside anything that would catch it (a timer's callback), as a bug would. */
const throwLater = (message: string) =>
  setTimeout(() => {
    throw new Error(message);
  });

describe.skipIf(!canRunApp)("the whole app's check of its pages", () => {
  it('fails the run when a window throws or breaks its policy, naming what it saw', async () => {
    const { run, page } = await openApp();
    await page.evaluate(throwLater, 'thrown on purpose by the test');
    await page.evaluate(inPage.tryInlineStyle);
    await expect
      .poll(() => run.pageProblems.seen().join('\n'), { timeout: 30_000 })
      .toMatch(/the page threw: thrown on purpose[\s\S]*Content-Security-Policy violation/);
    const stopped = run.stop();
    await expect(stopped).rejects.toThrow(/the page threw: thrown on purpose by the test/);
    await expect(stopped).rejects.toThrow(
      /Content-Security-Policy violation: Applying inline style violates/,
    );
    expect(await run.exited).toBe(0);
  });

  it('passes what a test said it expected, and fails when that never came', async () => {
    const { run, page } = await openApp();
    run.pageProblems.expect(/the page threw: thrown on purpose/);
    run.pageProblems.expect(/the page threw: never thrown/);
    await page.evaluate(throwLater, 'thrown on purpose by the test');
    await expect
      .poll(() => run.pageProblems.seen(), { timeout: 30_000 })
      .toEqual(['the page threw: thrown on purpose by the test']);
    const closed = run.close();
    await expect(closed).rejects.toThrow(
      "The app's pages went wrong:\n- expected a page problem matching /the page threw: never thrown/, none came",
    );
    await expect(closed).rejects.not.toThrow(/thrown on purpose/);
  });
});
