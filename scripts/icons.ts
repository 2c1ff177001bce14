// npm run icons: renders resources/icon.svg into every size the platforms
// need, so the SVG stays the one source:
//   resources/icon.png        1024 px: macOS (electron-builder makes the .icns from it)
//   resources/icon.ico        16-256 px in one file: Windows (installer, exe, taskbar)
//   resources/icons/NxN.png   16-512 px: Linux (AppImage and deb desktop entries)
// The .ico holds PNG images, which Windows Vista and later read.

import { Resvg } from '@resvg/resvg-js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const resources = join(import.meta.dirname, '..', 'resources');
const svg = readFileSync(join(resources, 'icon.svg'));

function render(size: number): Buffer {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
}

/** An ICO file of PNG images: a 6-byte header, a 16-byte entry per image, then the images. */
function ico(images: readonly { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length + images.length * 16;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // 0 means 256
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
}

writeFileSync(join(resources, 'icon.png'), render(1024));
mkdirSync(join(resources, 'icons'), { recursive: true });
for (const size of [16, 32, 48, 64, 128, 256, 512]) {
  writeFileSync(join(resources, 'icons', `${size}x${size}.png`), render(size));
}
writeFileSync(
  join(resources, 'icon.ico'),
  ico([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, png: render(size) }))),
);
console.log('Icons written to resources/ from resources/icon.svg');
