// What the About box says: the version, where updates come from (the update
// channel and server, or that there are none), and the data folder, so a
// clerk on the phone with IT can read them out.

import type { UpdateSettingsView } from '../../shared/updates.ts';

export interface AboutFacts {
  readonly productName: string;
  readonly version: string;
  readonly updates: UpdateSettingsView;
  /** The app's own folder: settings, saved keys, local data, logs. */
  readonly dataFolder: string;
  readonly versions: {
    readonly electron?: string;
    readonly chrome?: string;
    readonly node: string;
  };
}

export function aboutBox(facts: AboutFacts): { readonly message: string; readonly detail: string } {
  const { updates, versions } = facts;
  const updateLine = updates.address
    ? `Updates: the ${updates.channel} channel from ${updates.address}${updates.source === 'build' ? ' (set when it was built)' : ' (set in Settings)'}`
    : 'Updates: none (no update address is set)';
  return {
    message: `${facts.productName} ${facts.version}`,
    detail: [
      updateLine,
      `Data folder: ${facts.dataFolder}`,
      `Electron ${versions.electron ?? '?'}, Chromium ${versions.chrome ?? '?'}, Node ${versions.node}`,
    ].join('\n'),
  };
}
