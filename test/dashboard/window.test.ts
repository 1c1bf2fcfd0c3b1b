import { afterEach, describe, expect, it, vi } from 'vitest';
import { DashboardState, MAX_ENTRIES } from '../../src/dashboard/state.js';
import type { JournalEntry } from '../../src/journal/journal.js';
import { DeviceNames } from '../../src/server/admin/devices.js';

/** The most device names kept: docs/security.md, "Bounds" (device names given from the dashboard). */
const MAX_DEVICE_NAMES = 1000;

const entry = (id: number): JournalEntry => ({
  id,
  time: '2026-01-01T00:00:00.000Z',
  operation: 'meta/cp',
  query: {},
  scenario: 'default',
  status: 200,
  durationMs: 1,
  findings: [],
  match: null,
  fault: null,
});

afterEach(() => vi.useRealTimers());

describe('the dashboard keeps a bounded window of journal entries (issue 34, item 6)', () => {
  it(`keeps the newest ${MAX_ENTRIES} of 60,000 live entries, and of a larger journal read at start`, () => {
    vi.useFakeTimers(); // no refresh, no draw: the state alone
    const state = new DashboardState();
    for (let id = 1; id <= 60_000; id++) state.addEntry(entry(id));
    expect(state.entries.size).toBe(MAX_ENTRIES);
    expect(Math.min(...state.entries.keys())).toBe(60_000 - MAX_ENTRIES + 1);
    state.replaceEntries(Array.from({ length: 3000 }, (_, i) => entry(70_001 + i)));
    expect(state.entries.size).toBe(MAX_ENTRIES);
    expect(state.visibleEntries()[0]!.id).toBe(73_000);
  });
});

describe('device names are bounded', () => {
  it(`keeps at most ${MAX_DEVICE_NAMES} names, forgetting the one given longest ago`, () => {
    const names = new DeviceNames();
    for (let i = 0; i <= MAX_DEVICE_NAMES; i++) names.set(`device-${i}`, `name ${i}`);
    expect(names.get('device-0')).toBeNull();
    expect(names.get('device-1')).toBe('name 1');
    expect(names.get(`device-${MAX_DEVICE_NAMES}`)).toBe(`name ${MAX_DEVICE_NAMES}`);
  });
});
