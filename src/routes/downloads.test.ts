import { parse } from 'content-disposition';
import { describe, expect, it } from 'vitest';
import { shippedCatalog } from '../scenarios/shipped-catalog.js';
import { Downloads, type DownloadRoute } from './downloads.js';
import { routeOf } from '../normalise/path.js';

const downloads = new Downloads(() => shippedCatalog());
const get = (path: string, query = '') => downloads.answer(routeOf(path) as DownloadRoute, query);

describe('Downloads', () => {
  it('names a provider package in Content-Disposition without letting its name add a parameter', () => {
    const answer = get('/__mockvideo/apk/a%22%3B%20filename%3Devil.apk');
    expect(answer.status).toBe(200);
    const disposition = parse(answer.headers['content-disposition']!);
    expect(disposition).toEqual({ type: 'attachment', parameters: { filename: 'a"; filename=evil.apk' } });
  });

  it('keeps one answer per image and query, and explains what it cannot serve', () => {
    expect(get('/__mockvideo/media/thumb/1.png', 'size=10x10')).toBe(
      get('/__mockvideo/media/thumb/1.png', 'size=10x10'),
    );
    expect(get('/__mockvideo/media/thumb/1.png', 'size=0x10').status).toBe(404);
    expect(get('/__mockvideo/apk/no-extension').status).toBe(404);
    expect(JSON.parse(get('/__mockvideo/plugins/nope.apk').body as string).files.length).toBeGreaterThan(0);
  });
});
