import { describe, expect, it } from 'vitest';
import { upgradeData } from './upgrade.js';

const entries = [
  { id: 'streamly', version: 12, url: 'a' },
  { id: 'streamly', version: 14, url: 'b' },
  { id: 'tunetv', version: 510, url: 'c' },
];

describe('upgradeData', () => {
  it('answers the newest entry of the plugin above the asked version', () => {
    expect(upgradeData(entries, 'videoplayer://player-plugin/streamly/11')).toMatchObject({ version: 14 });
  });
  it('answers {} when the asked version is the newest', () => {
    expect(upgradeData(entries, 'videoplayer://player-plugin/streamly/14')).toEqual({});
    expect(upgradeData(entries, 'videoplayer://player-plugin/ghost/1')).toEqual({});
  });
  it('answers undefined without a uri of the seed form', () => {
    expect(upgradeData(entries, null)).toBeUndefined();
    expect(upgradeData(entries, 'streamly/11')).toBeUndefined();
  });
});
