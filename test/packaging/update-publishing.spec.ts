// The company's update address, given when it packages the app: the
// publishing setting electron-builder reads (STORE_ADMIN_UPDATE_URL, and the
// channel), then for real `electron-builder --dir` with it, as package:dir
// runs it (with the Electron stand-in's distribution): the package carries
// resources/app-update.yml, and the packaged app, started in the stand-in,
// reads it: About names it, and Help > Check for Updates asks that server.
// Needs `npm run build` first.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updatePublishing } from '../../electron-builder.config.ts';
import { readBuildFeed } from '../../src/main/updates/update-settings.ts';
import {
  STANDIN_RUNS_ON,
  standinHome,
  standinRunsHere,
  startStandin,
  waitFor,
} from '../e2e/support/standin.ts';
import { startUpdateServer, type UpdateServer } from '../support/update-server.ts';

const root = join(import.meta.dirname, '../..');

describe('the publishing setting', () => {
  it('is none without an address, and a generic server with one', () => {
    expect(updatePublishing({})).toBeNull();
    expect(updatePublishing({ STORE_ADMIN_UPDATE_URL: '  ' })).toBeNull();
    expect(
      updatePublishing({
        STORE_ADMIN_UPDATE_URL: 'https://updates.petstore.example/store-admin',
        STORE_ADMIN_UPDATE_CHANNEL: 'stable',
      }),
    ).toEqual([
      {
        provider: 'generic',
        url: 'https://updates.petstore.example/store-admin/',
        channel: 'stable',
      },
    ]);
  });

  it('stops the build for an address the app would refuse, rather than ship it ignored', () => {
    expect(() => updatePublishing({ STORE_ADMIN_UPDATE_URL: 'http://updates.corp/' })).toThrow(
      /^STORE_ADMIN_UPDATE_URL: Use https:\/\//,
    );
    expect(() =>
      updatePublishing({
        STORE_ADMIN_UPDATE_URL: 'https://updates.corp/',
        STORE_ADMIN_UPDATE_CHANNEL: 'no spaces',
      }),
    ).toThrow(/^STORE_ADMIN_UPDATE_CHANNEL/);
  });
});

describe.skipIf(!standinRunsHere)(
  `a package built with an update address, opened on ${STANDIN_RUNS_ON}`,
  () => {
    const work = mkdtempSync(join(tmpdir(), 'store-admin-publish-'));
    const output = join(work, 'dist');
    const resources = join(output, 'linux-unpacked', 'resources');
    let server: UpdateServer;

    beforeAll(async () => {
      if (!existsSync(join(root, 'out/main/index.js'))) throw new Error('Run npm run build first.');
      server = await startUpdateServer();
      const run = spawnSync(
        process.execPath,
        [
          join(root, 'node_modules/electron-builder/cli.js'),
          '--config',
          'electron-builder.config.ts',
          '--dir',
          '--publish',
          'never',
          '--linux',
          `-c.directories.output=${output}`,
        ],
        {
          cwd: root,
          encoding: 'utf8',
          env: {
            ...process.env,
            ELECTRON_OVERRIDE_DIST_PATH: join(root, 'tools/electron-standin/dist'),
            // Loopback plain http is what the app accepts for trying a server out.
            STORE_ADMIN_UPDATE_URL: server.url,
            CI: 'true',
          },
          timeout: 240_000,
        },
      );
      if (run.status !== 0) throw new Error(`electron-builder failed:\n${run.stdout}${run.stderr}`);
    }, 300_000);
    afterAll(async () => {
      await server?.close();
      rmSync(work, { recursive: true, force: true });
    });

    it('carries the address in resources/app-update.yml, as the app reads it', () => {
      expect(readdirSync(resources).sort()).toEqual(['app-update.yml', 'app.asar']);
      const yaml = readFileSync(join(resources, 'app-update.yml'), 'utf8');
      expect(readBuildFeed(yaml)).toEqual({
        feed: { url: server.url, channel: 'latest', source: 'build' },
      });
    });

    it('uses it once installed: About names it, and a check asks that server', async () => {
      const home = standinHome({
        ELECTRON_OVERRIDE_DIST_PATH: join(root, 'tools/electron-standin/dist'),
        XDG_CACHE_HOME: join(work, 'cache'),
      });
      // As an AppImage runs: the file electron-updater would replace.
      const appImage = join(work, 'Store-Admin.AppImage');
      writeFileSync(appImage, '#!/bin/sh\n', { mode: 0o755 });
      const run = startStandin([join(output, 'linux-unpacked', 'store-admin')], {
        cwd: work,
        home,
        env: { APPIMAGE: appImage },
      });
      try {
        await run.page(60_000);
        await run.clickMenu(['Help', 'About Store Admin']);
        const about = await run.nextDialog();
        expect(String(about.options['detail']).split('\n')[0]).toBe(
          `Updates: the latest channel from ${server.url} (set when it was built)`,
        );
        await run.answerDialog(about.id, 0);

        // Nothing is published there yet: the server is asked, and says so.
        await run.clickMenu(['Help', 'Check for Updates…']);
        const answer = await run.nextDialog();
        expect(answer.options['message']).toBe(
          `The update server at ${new URL(server.url).host} has no update information for the latest channel.`,
        );
        await run.answerDialog(answer.id, 0);
        await waitFor('the request', () =>
          server.requests.find((r) => r.path === '/latest-linux.yml'),
        );
      } finally {
        await run.stop();
        home.remove();
      }
    });
  },
);
