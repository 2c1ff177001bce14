// The Settings screen as a clerk fills it in: an environment's tab, its
// address and its key, each saved and waited for until Settings says so.

import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { describedText } from './description.ts';

/** Settings, on `environment`'s tab. */
export async function openSettingsOf(
  page: Page,
  environment: 'Staging' | 'Production',
): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page
    .getByRole('navigation', { name: 'Environment settings' })
    .getByRole('button', { name: environment })
    .click();
}

/** Saves `baseUrl` as the open tab's address; its field, once Settings says it is saved. */
export async function saveAddress(page: Page, baseUrl: string): Promise<Locator> {
  const address = page.getByLabel('Address', { exact: true });
  await address.fill(baseUrl);
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect.poll(() => describedText(address)).toContain('Saved.');
  return address;
}

/**
 * Saves `key` as the open tab's API key; its field, once Settings says `said`
 * (saved, or kept until quit where this computer cannot protect it).
 */
export async function saveKey(
  page: Page,
  key: string,
  said: RegExp = /Key (saved|kept) for \w+/,
): Promise<Locator> {
  const field = page.getByLabel('API key', { exact: true });
  await field.fill(key);
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect.poll(() => describedText(field)).toMatch(said);
  return field;
}
