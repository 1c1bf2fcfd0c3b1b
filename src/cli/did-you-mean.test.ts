import { describe, expect, it } from 'vitest';
import { closestName } from '../errors.js';
import { withFlagSuggestions } from './did-you-mean.js';

// Issue 20, item 12: no "did you mean" for `--scenario galery` or `--prot`.
describe('did you mean', () => {
  it('names the closest scenario or flag when the typed one is a typo of it', () => {
    expect(closestName('galery', ['default', 'gallery', 'non-gallery'])).toBe('gallery');
    expect(closestName('prot', ['port', 'host', 'scenario'])).toBe('port');
    expect(closestName('sever-error', ['server-error', 'flaky'])).toBe('server-error');
  });

  it('stays silent when nothing is close, or the name is known', () => {
    expect(closestName('zzzzzzz', ['default', 'gallery'])).toBeUndefined();
    expect(closestName('gallery', ['gallery', 'galery'])).toBeUndefined();
    expect(closestName('x', [])).toBeUndefined();
  });

  it("adds suggestions to yargs' unknown-argument message, once per flag", () => {
    expect(withFlagSuggestions('Unknown argument: prot', ['port', 'host'])).toBe(
      'Unknown argument: prot. Did you mean --port?',
    );
    expect(withFlagSuggestions('Unknown arguments: fallback-scenarios, fallbackScenarios', ['fallback-scenario'])).toBe(
      'Unknown arguments: fallback-scenarios, fallbackScenarios. Did you mean --fallback-scenario?',
    );
    expect(withFlagSuggestions('Unknown argument: zzzz', ['port'])).toBe('Unknown argument: zzzz');
    expect(withFlagSuggestions('Missing required argument: out', ['out'])).toBe('Missing required argument: out');
  });
});
