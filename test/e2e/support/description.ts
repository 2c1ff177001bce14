// What a screen reader reads as an element's description: the text of every
// element its aria-describedby names, in order. TextField puts a field's hint
// and its one message there, so a field's latest outcome is read from this.

import type { Locator } from 'playwright-core';

export async function describedText(element: Locator): Promise<string> {
  const ids = (await element.getAttribute('aria-describedby')) ?? '';
  const page = element.page();
  const texts = await Promise.all(
    ids
      .split(' ')
      .filter(Boolean)
      .map((id) => page.locator(`[id="${id}"]`).textContent()),
  );
  return texts.join(' ');
}
