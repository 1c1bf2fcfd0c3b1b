import { describe, expect, it } from 'vitest';
import { foreignRequest, mayMutate, ownHostNames } from './host-guard.js';

/** Whether `address` may mutate without a token: only loopback may. */
const isLoopback = (address: string | undefined) => mayMutate(address, undefined, undefined);

describe('admin guard', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('treats %s as loopback', (address) => {
    expect(isLoopback(address)).toBe(true);
  });

  it.each(['10.0.2.2', '192.168.1.20', '::ffff:192.168.1.20', 'fe80::1', '', undefined])(
    'does not treat %s as loopback',
    (address) => {
      expect(isLoopback(address)).toBe(false);
    },
  );

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

describe('browser-borne requests', () => {
  const own = new Set(['localhost', '127.0.0.1', '::1', '192.168.1.20']);

  it("passes tools without Origin and the server's own pages", () => {
    expect(foreignRequest('127.0.0.1:8787', undefined, own)).toBeUndefined();
    expect(foreignRequest('[::1]:8787', 'http://[::1]:8787', own)).toBeUndefined();
    expect(foreignRequest('192.168.1.20:8787', 'http://192.168.1.20:8787', own)).toBeUndefined();
  });

  it('refuses another origin, even on this machine', () => {
    expect(foreignRequest('127.0.0.1:8787', 'http://evil.example', own)).toMatch(
      /Origin "http:\/\/evil.example" is not mockvideo's own/,
    );
    expect(foreignRequest('127.0.0.1:8787', 'http://127.0.0.1:3000', own)).toMatch(/not mockvideo's own/);
    expect(foreignRequest('127.0.0.1:8787', 'null', own)).toMatch(/not mockvideo's own/);
  });

  it('refuses a Host that is not a name of this server (DNS rebinding)', () => {
    expect(foreignRequest('attacker.example:8787', undefined, own)).toMatch(
      /Host "attacker.example:8787" is not a name of this server/,
    );
    // The host name is read without port or brackets, in any case.
    expect(foreignRequest('[::1]:80', undefined, own)).toBeUndefined();
    expect(foreignRequest('LocalHost:8787', undefined, own)).toBeUndefined();
    expect(foreignRequest('LocalHost.evil:8787', undefined, own)).toMatch(/is not a name of this server/);
  });

  it('answers to the names of --allow-host, with or without a port', () => {
    const allowed = ownHostNames(['Mockvideo.test', '10.0.0.5:8787', '[fd00::5]:8787']);
    for (const host of ['mockvideo.test:8787', '10.0.0.5:8787', '[fd00::5]:8787', 'localhost:8787', '10.0.2.2:8787'])
      expect(foreignRequest(host, undefined, allowed)).toBeUndefined();
    expect(foreignRequest('other.test:8787', undefined, allowed)).toMatch(/is not a name of this server/);
  });
});
