// Where updates come from: the app-update.yml electron-builder writes from the
// build's publish setting, else the address saved from Settings (checked,
// kept across restarts, emptied to turn updates off), else none.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFiles } from '../../../src/main/local-data/local-files.ts';
import { readBuildFeed, UpdateSettings } from '../../../src/main/updates/update-settings.ts';
import { checkUpdateAddress } from '../../../src/shared/updates.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function settingsFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'store-admin-updates-'));
  folders.push(folder);
  return join(folder, 'update-settings.json');
}

describe('the address given when the app was built', () => {
  it('is read from the app-update.yml electron-builder writes for a generic server', () => {
    expect(
      readBuildFeed(
        'provider: generic\nurl: https://updates.petstore.example/store-admin\nchannel: beta\nupdaterCacheDirName: store-admin-updater\n',
      ),
    ).toEqual({
      feed: {
        url: 'https://updates.petstore.example/store-admin/',
        channel: 'beta',
        source: 'build',
      },
    });
    expect(readBuildFeed("provider: generic\nurl: 'https://u.example/'\n").feed?.channel).toBe(
      'latest',
    );
    expect(readBuildFeed(undefined)).toEqual({});
  });

  it('is none, with the reason for the log, when it is not one this app takes', () => {
    expect(readBuildFeed('provider: github\nowner: x\n')).toEqual({
      problem: 'app-update.yml names no generic update server',
    });
    expect(readBuildFeed('provider: generic\nurl: http://updates.corp/\n').problem).toMatch(
      /Use https:\/\//,
    );
    expect(readBuildFeed('url: [unclosed').problem).toBe('app-update.yml is not YAML');
  });
});

describe('the address set in Settings', () => {
  it('is checked, saved, read again at the next start, and emptied to turn updates off', async () => {
    const file = settingsFile();
    const settings = new UpdateSettings({ file, files: nodeFiles() });
    expect(settings.feed()).toBeUndefined();
    expect(settings.view()).toEqual({ source: 'none', channel: 'latest' });
    const changes: unknown[] = [];
    settings.onChange((feed) => changes.push(feed));

    await expect(settings.setAddress('http://updates.example.com/')).rejects.toMatchObject({
      failure: { kind: 'invalid-input' },
    });
    await settings.setAddress(' https://updates.example.com/store-admin ');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      address: 'https://updates.example.com/store-admin/',
    });
    const again = new UpdateSettings({ file, files: nodeFiles() });
    expect(again.feed()).toEqual({
      url: 'https://updates.example.com/store-admin/',
      channel: 'latest',
      source: 'settings',
    });

    await settings.setAddress('');
    expect(settings.feed()).toBeUndefined();
    expect(changes).toEqual([
      { url: 'https://updates.example.com/store-admin/', channel: 'latest', source: 'settings' },
      undefined,
    ]);
  });

  it('gives way to the build’s address, which it cannot change', async () => {
    const file = settingsFile();
    writeFileSync(file, JSON.stringify({ address: 'https://mine.example/' }));
    const build = { url: 'https://company.example/', channel: 'latest', source: 'build' as const };
    const settings = new UpdateSettings({ file, files: nodeFiles(), build });
    expect(settings.feed()).toEqual(build);
    await expect(settings.setAddress('https://other.example/')).rejects.toMatchObject({
      failure: {
        message:
          'The update address was set when Store Admin was built, so it is changed there, not in Settings.',
      },
    });
  });

  it('reads a damaged or unacceptable saved file as none', () => {
    const file = settingsFile();
    writeFileSync(file, '{"address": "http://plain.example/"');
    expect(new UpdateSettings({ file, files: nodeFiles() }).feed()).toBeUndefined();
    writeFileSync(file, '{"address": "http://plain.example/"}');
    expect(new UpdateSettings({ file, files: nodeFiles() }).feed()).toBeUndefined();
  });
});

describe('an update address', () => {
  it('is https (http only on this computer), without credentials or a query, as a folder', () => {
    expect(checkUpdateAddress('http://127.0.0.1:8080/updates')).toEqual({
      ok: true,
      value: 'http://127.0.0.1:8080/updates/',
    });
    expect(checkUpdateAddress('https://u:p@updates.example/')).toMatchObject({ ok: false });
    expect(checkUpdateAddress('https://updates.example/?x=1')).toMatchObject({ ok: false });
    expect(checkUpdateAddress('ftp://updates.example/')).toMatchObject({ ok: false });
    expect(checkUpdateAddress(`https://u.example/${'a'.repeat(600)}`)).toMatchObject({
      ok: false,
    });
  });
});
