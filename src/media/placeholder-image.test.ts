import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { parseMediaPath, type MediaRequest } from './media-path.js';
import { placeholderImage } from './placeholder-image.js';

const request = (path: string, query = '') => parseMediaPath(path, new URLSearchParams(query)) as MediaRequest;

describe('parseMediaPath', () => {
  it('reads format, size by kind and label from the path', () => {
    expect(request('/__mockvideo/media/thumb/streamly/sv1001.jpg')).toMatchObject({
      format: 'jpeg',
      contentType: 'image/jpeg',
      width: 320,
      height: 180,
      label: 'sv1001',
    });
    expect(request('/__mockvideo/media/icon/cinebox.png')).toMatchObject({
      format: 'png',
      width: 96,
      height: 96,
      label: 'cinebox',
    });
    expect(request('/__mockvideo/media/anything.PNG', 'size=10x20&label=7')).toMatchObject({
      format: 'png',
      width: 10,
      height: 20,
      label: '7',
    });
  });

  it('ignores other paths and explains what it cannot serve', () => {
    expect(parseMediaPath('/api/g1/meta/cp', new URLSearchParams())).toBeUndefined();
    expect(parseMediaPath('/__mockvideo/media/x.gif', new URLSearchParams())).toEqual({
      error: expect.stringMatching(/\.png, \.jpg or \.jpeg/),
    });
    expect(parseMediaPath('/__mockvideo/media/x.png', new URLSearchParams('size=0x5'))).toEqual({
      error: expect.stringMatching(/WIDTHxHEIGHT/),
    });
  });
});

describe('placeholderImage', () => {
  it('encodes a PNG that decodes to the asked size, the same bytes every time', () => {
    const r = request('/__mockvideo/media/icon/streamly.png');
    const bytes = placeholderImage(r);
    const png = PNG.sync.read(Buffer.from(bytes));
    expect([png.width, png.height]).toEqual([96, 96]);
    expect(placeholderImage(r)).toEqual(bytes);
  });

  it('encodes a JPEG that decodes to the asked size', () => {
    const decoded = jpeg.decode(placeholderImage(request('/__mockvideo/media/thumb/a/b.jpg')));
    expect([decoded.width, decoded.height]).toEqual([320, 180]);
  });

  it('draws the label in white on a colour that depends on the path', () => {
    // The RGBA pixels of the PNG served at `path` (PNG is lossless).
    const pixels = (path: string, query: string) =>
      new Uint8Array(PNG.sync.read(Buffer.from(placeholderImage(request(path, query)))).data);
    const white = (data: Uint8Array) =>
      data.filter((_, i) => i % 4 === 0 && data[i] === 255 && data[i + 1] === 255 && data[i + 2] === 255).length;
    expect(white(pixels('/__mockvideo/media/x.png', 'size=64x32&label=12'))).toBeGreaterThan(0);
    expect(white(pixels('/__mockvideo/media/x.png', 'size=64x32&label='))).toBe(0);
    expect(pixels('/__mockvideo/media/a.png', 'size=8x8&label=').subarray(40, 44)).not.toEqual(
      pixels('/__mockvideo/media/b.png', 'size=8x8&label=').subarray(40, 44),
    );
  });
});
