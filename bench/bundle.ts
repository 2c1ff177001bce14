// What the page loads to start: the built renderer's index.html, its
// scripts, the modules it preloads and its styles, in bytes as shipped
// (npm run build), and what is left to load when a screen is first opened.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BenchLine } from './report.ts';

const RENDERER = resolve(import.meta.dirname, '../out/renderer');

export function benchBundle(): BenchLine[] {
  const html = readFileSync(join(RENDERER, 'index.html'), 'utf8');
  const initial = new Set<string>();
  for (const match of html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g))
    initial.add(match[1]!);
  const size = (file: string) => statSync(join(RENDERER, file)).size;
  const assets = readdirSync(join(RENDERER, 'assets'))
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => `assets/${file}`);
  const start = size('index.html') + [...initial].reduce((sum, file) => sum + size(file), 0);
  const later = assets
    .filter((file) => !initial.has(file))
    .reduce((sum, file) => sum + size(file), 0);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  return [
    {
      name: `renderer bundle (minified): what the page loads to start (index.html, ${initial.size} scripts and styles)`,
      value: kb(start),
      figure: { name: 'startup.bundle.bytes', value: start, unit: 'bytes' },
    },
    {
      name: 'renderer bundle (minified): loaded when Domains or Settings is first opened',
      value: kb(later),
      figure: { name: 'startup.bundle.lazy.bytes', value: later, unit: 'bytes' },
    },
  ];
}
