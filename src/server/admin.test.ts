import { describe, expect, it } from 'vitest';
import { isLoopback, mayMutate } from './admin.js';

describe('admin guard', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('treats %s as loopback', (address) => {
    expect(isLoopback(address)).toBe(true);
  });

  it.each(['10.0.2.2', '192.168.1.20', '::ffff:192.168.1.20', 'fe80::1', '', undefined])('does not treat %s as loopback', (address) => {
    expect(isLoopback(address)).toBe(false);
  });

  it('refuses mutations from other hosts without a configured token', () => {
    expect(mayMutate('192.168.1.20', undefined, undefined)).toBe(false);
    expect(mayMutate('192.168.1.20', 'Bearer guess', undefined)).toBe(false);
  });

  it('accepts them from other hosts only with the configured token', () => {
    expect(mayMutate('192.168.1.20', 'Bearer s3cret', 's3cret')).toBe(true);
    expect(mayMutate('192.168.1.20', 'Bearer wrong', 's3cret')).toBe(false);
    expect(mayMutate('127.0.0.1', undefined, 's3cret')).toBe(true);
  });
});
