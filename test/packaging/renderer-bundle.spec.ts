// The API key stays in main (test/security/key-stays-in-main.spec.ts): the
// renderer never handles it, so its built bundle builds no Authorization
// header, whatever a dependency would do. Needs `npm run build` first (the
// heavy tier builds before it runs).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const rendererOut = join(import.meta.dirname, '../../out/renderer');

describe('the renderer bundle', () => {
  it('builds no Authorization header', () => {
    if (!existsSync(rendererOut)) throw new Error('Run npm run build first.');
    const assets = readdirSync(rendererOut, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    expect(assets.some((file) => file.endsWith('.js'))).toBe(true);
    for (const file of assets) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/authorization|bearer /i);
    }
  });
});
