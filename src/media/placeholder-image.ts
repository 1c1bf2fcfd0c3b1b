import { encode as encodePng } from 'fast-png';
import jpeg from 'jpeg-js';
import { GLYPHS, GLYPH_HEIGHT, GLYPH_WIDTH, drawableText } from './bitmap-font.js';
import type { MediaRequest } from './media-path.js';

/** 32-bit FNV-1a hash of a string: the deterministic source of a placeholder's colour. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/** An RGB colour with a hue from `seed` (saturation 0.55, lightness 0.45: dark enough for white text), by the usual HSL formula. */
function colourOf(seed: string): [number, number, number] {
  const hue = fnv1a(seed) % 360;
  const a = 0.55 * Math.min(0.45, 1 - 0.45);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    return Math.round((0.45 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))) * 255);
  };
  return [channel(0), channel(8), channel(4)];
}

/**
 * The RGBA pixels (row-major, 4 bytes a pixel) of a placeholder: a colour from `seed`, a lighter
 * 2-pixel border and `label` in white, centred, as large as fits (characters the tiny font lacks are
 * left out; a label too long for the width is cut).
 */
function placeholderPixels(width: number, height: number, label: string, seed: string): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  const [r, g, b] = colourOf(seed);
  const set = (x: number, y: number, rgb: readonly number[]) => {
    const at = (y * width + x) * 4;
    data[at] = rgb[0]!;
    data[at + 1] = rgb[1]!;
    data[at + 2] = rgb[2]!;
    data[at + 3] = 255;
  };
  const border = [Math.min(255, r + 70), Math.min(255, g + 70), Math.min(255, b + 70)];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) set(x, y, x < 2 || y < 2 || x >= width - 2 || y >= height - 2 ? border : [r, g, b]);
  }
  let text = drawableText(label);
  const advance = GLYPH_WIDTH + 1;
  let scale = Math.floor(Math.min((width * 0.9) / Math.max(1, text.length * advance), (height * 0.6) / GLYPH_HEIGHT));
  if (scale < 1) {
    scale = 1;
    text = text.slice(0, Math.max(0, Math.floor((width - 4) / advance)));
  }
  const left = Math.floor((width - (text.length * advance - 1) * scale) / 2);
  const top = Math.floor((height - GLYPH_HEIGHT * scale) / 2);
  [...text].forEach((char, i) => {
    // drawableText keeps only characters with a glyph.
    const rows = GLYPHS[char]!;
    for (let gy = 0; gy < GLYPH_HEIGHT; gy++) {
      for (let gx = 0; gx < GLYPH_WIDTH; gx++) {
        if (((rows[gy]! >> (GLYPH_WIDTH - 1 - gx)) & 1) === 0) continue;
        for (let dy = 0; dy < scale; dy++) {
          for (let dx = 0; dx < scale; dx++) {
            const x = left + (i * advance + gx) * scale + dx;
            const y = top + gy * scale + dy;
            if (x >= 0 && y >= 0 && x < width && y < height) set(x, y, [255, 255, 255]);
          }
        }
      }
    }
  });
  return data;
}

/**
 * JPEG bytes of RGBA pixels (jpeg-js, quality 85). jpeg-js hands back a Node `Buffer` when it runs
 * as CommonJS (as bundlers wrap it); where there is no `Buffer` (a browser), a `Uint8Array` stands in
 * for the length of the call.
 */
function encodeJpeg(data: Uint8Array, width: number, height: number): Uint8Array {
  const scope = globalThis as { Buffer?: unknown };
  if (scope.Buffer !== undefined) return new Uint8Array(jpeg.encode({ data, width, height }, 85).data);
  scope.Buffer = { from: (bytes: ArrayLike<number>) => Uint8Array.from(bytes) };
  try {
    return new Uint8Array(jpeg.encode({ data, width, height }, 85).data);
  } finally {
    delete scope.Buffer;
  }
}

/**
 * Encodes the placeholder `request` asks for as PNG (fast-png) or JPEG (jpeg-js, quality 85), in
 * any runtime. The same request always gives the same bytes.
 *
 * @example placeholderImage({ format: 'png', contentType: 'image/png', width: 96, height: 96, label: 'streamly', seed: '/x' })
 */
export function placeholderImage(request: MediaRequest): Uint8Array {
  const { width, height } = request;
  const data = placeholderPixels(width, height, request.label, request.seed);
  return request.format === 'jpeg'
    ? encodeJpeg(data, width, height)
    : encodePng({ width, height, data, channels: 4, depth: 8 });
}
