import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ScenarioCatalog, compileStub, type CompiledScenario } from '../scenarios/index.js';
import { pluginPackages } from './plugin-index.js';
import { md5Hex, packageContentType, pluginPackage } from './plugin-package.js';

const streamly = { id: 'streamly', version: 12, type: 'player_plugin' };

describe('pluginPackage', () => {
  it('is a ZIP made only from id, version and type: same input, same bytes', () => {
    const bytes = pluginPackage(streamly);
    expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    expect(md5Hex(pluginPackage({ ...streamly }))).toBe(md5Hex(bytes));
    expect(md5Hex(pluginPackage({ ...streamly, version: 13 }))).not.toBe(md5Hex(bytes));
    expect(strFromU8(unzipSync(bytes)['mockvideo-package.txt']!)).toContain('id: streamly');
  });

  it('names the APK content type', () => {
    expect(packageContentType('x.apk')).toBe('application/vnd.android.package-archive');
    expect(packageContentType('x.bin')).toBe('application/octet-stream');
  });
});

function scenarioWithPlugins(
  name: string,
  entries: Array<{ id: string; version: number; md5: string }>,
): CompiledScenario {
  const plugins = entries.map((e) => ({
    ...e,
    type: 'player_plugin',
    url: `{origin}/__mockvideo/plugins/${e.md5}.apk`,
  }));
  const empty = [compileStub({ data: {} })];
  // Only what the index reads; a real catalog also carries e.g. per-scenario settings.
  return {
    name,
    description: '',
    source: name,
    ancestry: [],
    operations: {
      ad_config: empty,
      'meta/cp': empty,
      'meta/setting': empty,
      'meta/plugin': [compileStub({ data: plugins })],
      'localplay/diversion': empty,
      'localplay/recomm': empty,
    },
  } as unknown as CompiledScenario;
}

describe('pluginPackages', () => {
  const genuine = md5Hex(pluginPackage(streamly));
  const wrong = md5Hex('other bytes');

  it('serves each entry its package at <md5>.<ext>; a wrong md5 is served the real package, so the check fails', () => {
    const index = pluginPackages(
      new ScenarioCatalog([
        scenarioWithPlugins('ok', [{ ...streamly, md5: genuine }]),
        scenarioWithPlugins('bad', [{ ...streamly, md5: wrong }]),
      ]),
    );
    expect(md5Hex(index.get(`${genuine}.apk`)!.bytes)).toBe(genuine);
    const bad = index.get(`${wrong}.apk`)!;
    expect(md5Hex(bad.bytes)).toBe(genuine);
    expect(bad).toMatchObject({ declaredMd5: wrong, servedMd5: genuine, scenarios: ['bad'] });
    expect(index.get('nope.apk')).toBeUndefined();
  });

  it('when two entries claim one file, the one whose bytes have that md5 wins', () => {
    const index = pluginPackages(
      new ScenarioCatalog([
        scenarioWithPlugins('a', [{ id: 'streamly', version: 99, md5: genuine }]),
        scenarioWithPlugins('b', [{ ...streamly, md5: genuine }]),
      ]),
    );
    expect(index.get(`${genuine}.apk`)).toMatchObject({ version: 12, servedMd5: genuine });
  });
});
