import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { routeRequestOf } from './route-request.js';

/** The path and raw query the routes get of a request whose target is `url`. */
function target(url: string) {
  const req = { url, method: 'GET', headers: { host: '127.0.0.1:8787' }, socket: {} } as unknown as IncomingMessage;
  const { path, query, origin } = routeRequestOf(req, {} as ServerResponse);
  return { path, query, origin };
}

describe('the request target the routes read', () => {
  it('keeps an origin-form target as sent, encoding and all', () => {
    expect(target('/api/g1/meta/cp?ref=&_model=Redmi%20Note%2B&ref=app')).toEqual({
      path: '/api/g1/meta/cp',
      query: 'ref=&_model=Redmi%20Note%2B&ref=app',
      origin: 'http://127.0.0.1:8787',
    });
  });
  it('drops the scheme and host of an absolute-form target: the origin is still the Host header', () => {
    expect(target('http://elsewhere.invalid:81/api/g1/meta/cp?a=1')).toEqual({
      path: '/api/g1/meta/cp',
      query: 'a=1',
      origin: 'http://127.0.0.1:8787',
    });
    expect(target('https://elsewhere.invalid')).toMatchObject({ path: '/', query: '' });
  });
});
