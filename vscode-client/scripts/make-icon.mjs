// Draws images/icon.png (128x128 RGBA) with no image library: "PTO" in block letters over four rank
// boxes joined by one bar (a grouped dispatch), on a rounded indigo square. 4x4 supersampling smooths
// the edges. Run with `npm run icon`; the PNG is committed.
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

const SIZE = 128;
const SS = 4; // samples per pixel, per axis

// 5x7 glyphs.
const GLYPHS = {
  P: ['11110', '10001', '10001', '11110', '10000', '10000', '10000'],
  T: ['11111', '00100', '00100', '00100', '00100', '00100', '00100'],
  O: ['01110', '10001', '10001', '10001', '10001', '10001', '01110'],
};

const BG_TOP = [49, 46, 129];
const BG_BOTTOM = [30, 64, 175];
const WHITE = [255, 255, 255];
const ACCENT = [250, 204, 21];

function insideRoundedRect(x, y, x0, y0, x1, y1, r) {
  if (x < x0 || x > x1 || y < y0 || y > y1) {
    return false;
  }
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function textPixel(x, y) {
  // "PTO", each cell 5 px wide, scaled to 6 px; 1 cell gap between letters.
  const scale = 6;
  const word = 'PTO';
  const width = (word.length * 5 + (word.length - 1)) * scale;
  const left = (SIZE - width) / 2;
  const top = 25;
  const col = Math.floor((x - left) / scale);
  const row = Math.floor((y - top) / scale);
  if (row < 0 || row >= 7 || col < 0) {
    return false;
  }
  const letter = Math.floor(col / 6);
  const inLetter = col % 6;
  if (letter >= word.length || inLetter === 5) {
    return false;
  }
  return GLYPHS[word[letter]][row][inLetter] === '1';
}

/** Colour at a sample point, or null for transparent. */
function sample(x, y) {
  if (!insideRoundedRect(x, y, 4, 4, SIZE - 4, SIZE - 4, 22)) {
    return null;
  }
  if (textPixel(x, y)) {
    return WHITE;
  }
  // Four rank boxes and the bar that groups them.
  const boxW = 16;
  const gap = 8;
  const rowLeft = (SIZE - (4 * boxW + 3 * gap)) / 2;
  const boxTop = 86;
  for (let i = 0; i < 4; i++) {
    const bx = rowLeft + i * (boxW + gap);
    if (insideRoundedRect(x, y, bx, boxTop, bx + boxW, boxTop + boxW, 3)) {
      return WHITE;
    }
  }
  if (insideRoundedRect(x, y, rowLeft, 76, rowLeft + 4 * boxW + 3 * gap, 81, 2.5)) {
    return ACCENT;
  }
  const t = y / SIZE;
  return BG_TOP.map((c, k) => Math.round(c + (BG_BOTTOM[k] - c) * t));
}

function render() {
  const rows = [];
  for (let py = 0; py < SIZE; py++) {
    const row = Buffer.alloc(1 + SIZE * 4); // filter byte 0, then RGBA
    for (let px = 0; px < SIZE; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const c = sample(px + (sx + 0.5) / SS, py + (sy + 0.5) / SS);
          if (c) {
            r += c[0];
            g += c[1];
            b += c[2];
            a += 1;
          }
        }
      }
      const o = 1 + px * 4;
      if (a > 0) {
        row[o] = Math.round(r / a);
        row[o + 1] = Math.round(g / a);
        row[o + 2] = Math.round(b / a);
        row[o + 3] = Math.round((255 * a) / (SS * SS));
      }
    }
    rows.push(row);
  }
  return Buffer.concat(rows);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) {
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) {
    c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', zlib.deflateSync(render(), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
fs.mkdirSync('images', { recursive: true });
fs.writeFileSync('images/icon.png', png);
console.log(`wrote images/icon.png (${SIZE}x${SIZE}, ${png.length} bytes)`);
