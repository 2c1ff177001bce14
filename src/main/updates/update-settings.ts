// Where updates come from: the address the company gave when it built the
// app (electron-builder's publish setting, which it writes into the package
// as resources/app-update.yml), else the one entered in Settings, else none,
// and then nothing is checked and nothing is sent. A build's address is the
// company's: Settings shows it and cannot change it.

import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import {
  checkUpdateAddress,
  DEFAULT_UPDATE_CHANNEL,
  type UpdateSettingsView,
} from '../../shared/updates.ts';
import { DATA_FILES } from '../local-data/data-files.ts';
import type { LocalFiles } from '../local-data/local-files.ts';
import { failure } from '../store-api/errors.ts';

/** An update server and the release line to follow there. */
export interface UpdateFeed {
  /** The folder holding latest-linux.yml (latest.yml, latest-mac.yml) and the installers. */
  readonly url: string;
  readonly channel: string;
  readonly source: 'build' | 'settings';
}

const CHANNEL = /^[a-z0-9][a-z0-9-]{0,31}$/i;

/**
 * The feed in the app-update.yml electron-builder wrote from a generic
 * publish setting; undefined when there is none or it is not one this app
 * accepts (`problem` says why, for the log).
 */
export function readBuildFeed(yamlText: string | undefined): {
  readonly feed?: UpdateFeed;
  readonly problem?: string;
} {
  if (yamlText === undefined) return {};
  let parsed: unknown;
  try {
    parsed = load(yamlText);
  } catch {
    return { problem: 'app-update.yml is not YAML' };
  }
  const config = (parsed ?? {}) as { provider?: unknown; url?: unknown; channel?: unknown };
  if (config.provider !== 'generic' || typeof config.url !== 'string')
    return { problem: 'app-update.yml names no generic update server' };
  const checked = checkUpdateAddress(config.url);
  if (!checked.ok) return { problem: `app-update.yml: ${checked.message}` };
  const channel =
    typeof config.channel === 'string' && CHANNEL.test(config.channel)
      ? config.channel
      : DEFAULT_UPDATE_CHANNEL;
  return { feed: { url: checked.value, channel, source: 'build' } };
}

export type FeedListener = (feed: UpdateFeed | undefined) => void;

export class UpdateSettings {
  readonly #file: string;
  readonly #files: LocalFiles;
  readonly #build: UpdateFeed | undefined;
  readonly #listeners = new Set<FeedListener>();
  #address: string | undefined;

  constructor(options: { file: string; files: LocalFiles; build?: UpdateFeed }) {
    this.#file = options.file;
    this.#files = options.files;
    this.#build = options.build;
    this.#address = readSavedAddress(options.file);
  }

  /** The feed in force; undefined means updates are off. */
  feed(): UpdateFeed | undefined {
    if (this.#build) return this.#build;
    return this.#address === undefined
      ? undefined
      : { url: this.#address, channel: DEFAULT_UPDATE_CHANNEL, source: 'settings' };
  }

  view(): UpdateSettingsView {
    const feed = this.feed();
    return feed
      ? { address: feed.url, source: feed.source, channel: feed.channel }
      : { source: 'none', channel: DEFAULT_UPDATE_CHANNEL };
  }

  /** Sets the address from Settings; an empty one turns updates off. */
  async setAddress(input: string): Promise<UpdateSettingsView> {
    if (this.#build)
      throw failure(
        'invalid-input',
        'The update address was set when Store Admin was built, so it is changed there, not in Settings.',
        'not-sent',
      );
    let address: string | undefined;
    if (input.trim() !== '') {
      const checked = checkUpdateAddress(input);
      if (!checked.ok) throw failure('invalid-input', checked.message, 'not-sent');
      address = checked.value;
    }
    if (address !== this.#address) {
      const saved = { version: DATA_FILES.updateSettings.version, ...(address ? { address } : {}) };
      await this.#files.replace(this.#file, `${JSON.stringify(saved)}\n`);
      this.#address = address;
      for (const listener of [...this.#listeners]) listener(this.feed());
    }
    return this.view();
  }

  /** Called with the feed in force whenever Settings changes it. */
  onChange(listener: FeedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** The address saved from Settings; a missing, damaged or unacceptable file is none. */
function readSavedAddress(file: string): string | undefined {
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { address?: unknown };
    if (typeof saved.address !== 'string') return undefined;
    const checked = checkUpdateAddress(saved.address);
    return checked.ok ? checked.value : undefined;
  } catch {
    return undefined;
  }
}
