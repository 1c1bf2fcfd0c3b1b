import { describe, expect, it } from 'vitest';
import { pluginEntrySchema, upgradeUrlProblem } from './plugin.js';

const uri = encodeURIComponent('videoplayer://player-plugin/cp1/2');

describe('{origin} in plugin URLs', () => {
  it('accepts an upgrade link that starts with {origin}, and still checks its path and query', () => {
    expect(upgradeUrlProblem(`{origin}/api/g1/meta/upgrade?uri=${uri}&_region=IN`)).toBeUndefined();
    expect(upgradeUrlProblem(`https://x.example/api/g1/meta/upgrade?uri=${uri}&_region=IN`)).toBeUndefined();
    expect(upgradeUrlProblem(`x{origin}/api/g1/meta/upgrade?uri=${uri}&_region=IN`)).toMatch(/absolute URL/);
    expect(upgradeUrlProblem(`{origin}/api/g1/meta/other?uri=${uri}&_region=IN`)).toMatch(/meta\/upgrade/);
    expect(upgradeUrlProblem('/api/g1/meta/upgrade')).toMatch(/absolute URL/);
  });

  it('accepts a plugin entry whose url and upgrade link use {origin}, and checks the uri names the entry', () => {
    const md5 = '0123456789abcdef0123456789abcdef';
    const entry = {
      id: 'cp1',
      name: 'CP1',
      type: 'player_plugin',
      version: 2,
      version_name: '2',
      updated_at: 1,
      url: `{origin}/__mockvideo/plugins/${md5}.apk`,
      md5,
      vendor_market: 'appmarket://download?id=x',
      market_sign: {
        appClientId: '1',
        appId: 'a',
        appSignature: 's',
        ext_marketType: 'm',
        nonce: '1:2',
        ref: 'r',
        ext_m_external_url: `{origin}/api/g1/meta/upgrade?uri=${uri}&_region=IN`,
      },
      params: {},
    };
    expect(pluginEntrySchema.safeParse(entry).error?.issues ?? []).toEqual([]);
    const wrong = { ...entry, version: 3 };
    expect(
      pluginEntrySchema
        .safeParse(wrong)
        .error?.issues.map((i) => i.message)
        .join(),
    ).toMatch(/player-plugin\/cp1\/3/);
  });
});
