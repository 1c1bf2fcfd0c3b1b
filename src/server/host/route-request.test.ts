import { describe, expect, it } from 'vitest';
import { originForm } from './route-request.js';

describe('originForm', () => {
  it('keeps an origin-form target as sent, encoding and all', () => {
    expect(originForm('/api/g1/meta/cp?ref=&_model=Redmi%20Note%2B&ref=app')).toBe(
      '/api/g1/meta/cp?ref=&_model=Redmi%20Note%2B&ref=app',
    );
  });
  it('drops the scheme and host of an absolute-form target', () => {
    expect(originForm('http://elsewhere.invalid:81/api/g1/meta/cp?a=1')).toBe('/api/g1/meta/cp?a=1');
    expect(originForm('https://elsewhere.invalid')).toBe('/');
  });
});
