import { describe, expect, it } from 'vitest';
import { caseId, type FuzzCase } from '../fuzz/case-id.js';
import { FuzzAnswers } from './fuzz.js';

// The bounds of the call numbers: docs/security.md, "Bounds" (`serve --fuzz` call numbers).
const MAX_FUZZ_DEVICES = 4096;
const MAX_FUZZ_DEVICE_CHARS = 1_048_576;

const generate = (which: FuzzCase) => ({ case: caseId(which), operation: which.operation, text: '{}', classes: [] });
const device = (n: number, length = 64) => `_sdevid=${n.toString(16).padStart(length, '0')}`;

describe('FuzzAnswers', () => {
  it('counts each device and operation from 1', () => {
    const fuzz = new FuzzAnswers({ seed: 1, generate });
    expect(fuzz.nextCase('meta/cp', device(1)).call).toBe(1);
    expect(fuzz.nextCase('meta/cp', device(1)).call).toBe(2);
    expect(fuzz.nextCase('meta/plugin', device(1)).call).toBe(1);
    expect(fuzz.nextCase('meta/cp', device(2)).call).toBe(1);
  });

  it('bounds its call numbers by bytes: 7.9 KB ids forget the device seen least recently (issue 39 L3)', () => {
    const fuzz = new FuzzAnswers({ seed: 1, generate });
    const long = (n: number) => device(n, 7900);
    fuzz.nextCase('meta/cp', long(0));
    const fit = Math.floor(MAX_FUZZ_DEVICE_CHARS / 7907);
    for (let n = 1; n < fit; n++) fuzz.nextCase('meta/cp', long(n));
    expect(fuzz.nextCase('meta/cp', long(fit - 1)).call).toBe(2); // all fit: every device is remembered
    for (let n = fit; n < fit + 50; n++) fuzz.nextCase('meta/cp', long(n));
    expect(fuzz.nextCase('meta/cp', long(0)).call).toBe(1); // forgotten, its calls start again
    expect(fuzz.nextCase('meta/cp', long(fit + 49)).call).toBe(2);
  });

  it('bounds its call numbers by count, forgetting the device seen least recently', () => {
    const fuzz = new FuzzAnswers({ seed: 1, generate });
    for (let n = 0; n < MAX_FUZZ_DEVICES; n++) fuzz.nextCase('ad_config', device(n));
    fuzz.nextCase('ad_config', device(0)); // seen again: now the most recent
    fuzz.nextCase('ad_config', device(MAX_FUZZ_DEVICES));
    expect(fuzz.nextCase('ad_config', device(0)).call).toBe(3);
    expect(fuzz.nextCase('ad_config', device(1)).call).toBe(1);
  });

  it('names the device in its cases with perDevice, and the classes switched off', () => {
    const fuzz = new FuzzAnswers({ seed: 1, perDevice: true, exclude: ['title-long'], generate });
    const first = caseId(fuzz.nextCase('meta/cp', device(1)));
    expect(first).toMatch(/^1:meta\/cp:1:device=[0-9a-f]{8}:off=title-long$/);
    expect(fuzz.nextCase('meta/cp', device(2)).device).not.toBe(fuzz.nextCase('meta/cp', device(1)).device);
    fuzz.setClass('title-long', true);
    expect(caseId(fuzz.nextCase('meta/cp', device(1)))).toMatch(/^1:meta\/cp:3:device=[0-9a-f]{8}$/);
    expect(() => fuzz.setClass('nope', false)).toThrow('Unknown edge class "nope"');
  });
});
