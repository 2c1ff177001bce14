// Debian's Chromium, driven by playwright-core (never a downloaded browser),
// with the flags this machine's closed network and container need.

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);

export async function launchChromium(): Promise<Browser> {
  // playwright-core gives each context a fresh, empty profile.
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    chromiumSandbox: false, // --no-sandbox: CI runs as root in a container
    args: [
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
