#!/usr/bin/env node
// @ts-check
// Draws the dashboard's app icons (a white bell ringing on indigo) into ui/public/icons as PNG,
// with nothing but node:zlib: each pixel is 4×4 samples of a few shapes, so edges are smooth.
// The PNGs are committed; run `node bin/make-icons.js` again only to change the drawing.
//   icon-192.png, icon-512.png   "any": a rounded square with transparent corners
//   maskable-512.png             "maskable": full bleed, the bell inside the safe circle (80 %)
//   apple-touch-icon.png (180)   iOS: full bleed and opaque (iOS rounds the corners itself)
'use strict';
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { deflateSync } = require('node:zlib');

const OUT = path.join(__dirname, '..', 'ui', 'public', 'icons');
/** Mantine's indigo 6 (the dashboard's primary colour) and white. */
const INDIGO = [0x4c, 0x6e, 0xf5];
const WHITE = [0xff, 0xff, 0xff];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(/** @type {Buffer} */ buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(/** @type {string} */ type, /** @type {Buffer} */ data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** An RGBA image as a PNG file (8 bits per channel, no filtering). */
function png(/** @type {number} */ size, /** @type {Uint8Array} */ rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    raw.set(rgba.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

const inCircle = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ cx, /** @type {number} */ cy, /** @type {number} */ r) =>
  (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

/** The bell in a unit square centred on (0.5, 0.5): true where it is white. */
function bell(/** @type {number} */ x, /** @type {number} */ y) {
  const dx = Math.abs(x - 0.5);
  if (inCircle(x, y, 0.5, 0.43, 0.2) && y <= 0.43) return true; // the dome
  if (y >= 0.43 && y <= 0.66 && dx <= 0.2 + ((y - 0.43) / 0.23) * 0.07) return true; // the flaring body
  if (y >= 0.64 && y <= 0.7 && (dx <= 0.28 || inCircle(dx, y, 0.28, 0.67, 0.03))) return true; // the rim
  if (inCircle(x, y, 0.5, 0.745, 0.06) && y >= 0.7) return true; // the clapper
  if (inCircle(x, y, 0.5, 0.215, 0.035)) return true; // the crown
  // Two arcs either side: it is ringing.
  const r = Math.hypot(x - 0.5, y - 0.45);
  const angle = Math.abs(Math.atan2(y - 0.45, dx)); // 0 = horizontal
  if (angle <= 0.55 && ((r >= 0.345 && r <= 0.385) || (r >= 0.43 && r <= 0.47)) && dx > 0.3) return true;
  return false;
}

/** Whether (x, y) in the unit square is inside a rounded square with corner radius `corner`. */
function inRoundedSquare(/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ corner) {
  const cx = Math.min(Math.max(x, corner), 1 - corner);
  const cy = Math.min(Math.max(y, corner), 1 - corner);
  return inCircle(x, y, cx, cy, corner);
}

/**
 * Draws one icon: `scale` shrinks the bell towards the centre (maskable icons keep it inside
 * the safe circle); `corner` rounds the background (0: full bleed, opaque).
 */
function draw(/** @type {number} */ size, /** @type {{ scale: number; corner: number }} */ opts) {
  const rgba = new Uint8Array(size * size * 4);
  const N = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < N; sy++) {
        for (let sx = 0; sx < N; sx++) {
          const x = (px + (sx + 0.5) / N) / size;
          const y = (py + (sy + 0.5) / N) / size;
          if (opts.corner > 0 && !inRoundedSquare(x, y, opts.corner)) continue;
          bg++;
          if (bell(0.5 + (x - 0.5) / opts.scale, 0.5 + (y - 0.5) / opts.scale)) fg++;
        }
      }
      const i = (py * size + px) * 4;
      const t = bg ? fg / bg : 0;
      for (let c = 0; c < 3; c++) rgba[i + c] = Math.round(INDIGO[c] * (1 - t) + WHITE[c] * t);
      rgba[i + 3] = Math.round((bg / (N * N)) * 255);
    }
  }
  return png(size, rgba);
}

mkdirSync(OUT, { recursive: true });
const icons = {
  'icon-192.png': draw(192, { scale: 1, corner: 0.2 }),
  'icon-512.png': draw(512, { scale: 1, corner: 0.2 }),
  'maskable-512.png': draw(512, { scale: 0.72, corner: 0 }),
  'apple-touch-icon.png': draw(180, { scale: 0.85, corner: 0 }),
};
for (const [name, data] of Object.entries(icons)) writeFileSync(path.join(OUT, name), data);
process.stdout.write(`wrote ${Object.keys(icons).join(', ')} to ${path.relative(process.cwd(), OUT) || '.'}\n`);
