import { describe, expect, it } from 'vitest';
import { StreamSlots } from './stream-slots.js';

/** Slots of streams named by a string. */
const slots = (total = 16, perAddress = 4) => ({ slots: new StreamSlots<string>(total, perAddress) });

describe('StreamSlots', () => {
  it('gives every stream a slot while there are free ones', () => {
    const { slots: s } = slots();
    for (let i = 0; i < 4; i++) expect(s.admit(`a${i}`, 'A')).toBeUndefined();
    expect(s.admit('b0', 'B')).toBeUndefined();
    expect([...s.streams()]).toEqual(['a0', 'a1', 'a2', 'a3', 'b0']);
  });

  it('a stream from an address at its cap takes the slot of that address’s oldest, never another address’s', () => {
    const { slots: s } = slots();
    s.admit('b0', 'B');
    for (let i = 0; i < 4; i++) s.admit(`a${i}`, 'A');
    expect(s.admit('a4', 'A')).toBe('a0');
    expect(s.admit('a5', 'A')).toBe('a1');
    expect([...s.streams()]).toEqual(['b0', 'a2', 'a3', 'a4', 'a5']);
  });

  it('when all are taken, a new address takes a slot of the address holding the most', () => {
    const { slots: s } = slots(6, 4);
    for (let i = 0; i < 4; i++) s.admit(`a${i}`, 'A');
    s.admit('b0', 'B');
    s.admit('c0', 'C');
    expect(s.admit('page', 'P')).toBe('a0');
    expect(s.admit('d0', 'D')).toBe('a1');
    expect(s.size).toBe(6);
  });

  it('frees the slot of a stream that closed', () => {
    const { slots: s } = slots(2, 2);
    s.admit('a0', 'A');
    s.admit('a1', 'A');
    s.delete('a0');
    expect(s.admit('b0', 'B')).toBeUndefined();
  });
});
