import { describe, expect, it } from 'vitest';
import { FaultBoard } from './board.js';

const reset = { kind: 'reset' } as const;

describe('FaultBoard', () => {
  it('counts times per client in client state: each client gets the fault that often', () => {
    const board = new FaultBoard('client');
    board.add({ operation: 'meta/cp', fault: reset, times: 1 });
    const take = (client: string) => board.take('meta/cp', () => client)?.kind ?? null;
    expect([take('a'), take('a'), take('b'), take('b')]).toEqual(['reset', null, 'reset', null]);
    expect(board.list()[0]).toMatchObject({ state: 'client', times: 1, remaining: 0, fired: 2, clients: { a: { fired: 1 }, b: { fired: 1 } } });
    board.resetClients('a');
    expect(take('a')).toBe('reset');
    expect(take('b')).toBeNull();
  });

  it('counts times for the whole server in global state, or when the fault says so', () => {
    const board = new FaultBoard('client');
    board.add({ operation: 'meta/cp', fault: reset, times: 1, state: 'global' });
    expect([board.take('meta/cp', () => 'a'), board.take('meta/cp', () => 'b')].map((f) => f?.kind ?? null)).toEqual(['reset', null]);
    expect(board.list()[0]).toMatchObject({ state: 'global', remaining: 0, fired: 1 });
  });

  it('keeps no per-client counts for a fault that hits every request until cleared', () => {
    const board = new FaultBoard('client');
    board.add({ fault: reset });
    for (const client of ['a', 'b', 'c']) expect(board.take('ad_config', () => client)?.kind).toBe('reset');
    expect(board.list()[0]!.clients).toBeUndefined();
  });
});
