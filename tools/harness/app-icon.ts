// The icon the harness serves as the page's favicon (without one, its 404 is
// the one console error on every load). The app's real icon, once it exists
// as resources/icon.png, is served instead; until then this stand-in, drawn
// here: a paw print on the app's blue.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const PAW = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" rx="14" fill="#1d4ed8"/>
  <g fill="#fff">
    <ellipse cx="32" cy="41" rx="13" ry="11"/>
    <ellipse cx="17" cy="27" rx="5.5" ry="7"/>
    <ellipse cx="27" cy="18" rx="5.5" ry="7.5"/>
    <ellipse cx="37" cy="18" rx="5.5" ry="7.5"/>
    <ellipse cx="47" cy="27" rx="5.5" ry="7"/>
  </g>
</svg>
`;

/** The icon's bytes and type: the app's own icon when there is one, else the drawn paw. */
export function appIcon(root: string): { readonly body: Buffer; readonly type: string } {
  const png = join(root, 'resources', 'icon.png');
  if (existsSync(png)) return { body: readFileSync(png), type: 'image/png' };
  return { body: Buffer.from(PAW, 'utf8'), type: 'image/svg+xml' };
}
