import { describe, expect, it } from 'vitest';
import { InFlightBudget, type BudgetShare } from './budget.js';

/** The share `admit` gave at once (fails when it made the exchange wait). */
function now(admitted: BudgetShare | Promise<BudgetShare>): BudgetShare {
  if (admitted instanceof Promise) throw new Error('expected to be admitted at once');
  return admitted;
}

describe('InFlightBudget', () => {
  it('admits while reservations fit, holds the rest back in order, and gives back once both ends are done', async () => {
    const budget = new InFlightBudget(10);
    const a = now(budget.admit(() => 4, 2));
    const b = now(budget.admit(() => 4, 2));
    const started: string[] = [];
    const c = Promise.resolve(budget.admit(() => 4, 2)).then((share) => (started.push('c'), share));
    const d = Promise.resolve(budget.admit(() => 1, 2)).then((share) => (started.push('d'), share));
    // `d` would fit, but waits behind `c`: first asked, first started.
    await Promise.resolve();
    expect(budget.held).toBe(8);
    a.release();
    await Promise.resolve();
    expect(started).toEqual([]);
    a.release();
    await Promise.all([c, d]);
    expect(started).toEqual(['c', 'd']);
    expect(budget.held).toBe(9);
    expect(b.taken).toBe(0);
  });

  it('counts what an exchange takes beyond its reservation, and no more than it took', () => {
    const budget = new InFlightBudget(100);
    const share = now(budget.admit(() => 10, 1));
    share.take(6);
    expect(budget.held).toBe(10);
    share.take(9);
    expect(budget.held).toBe(15);
    expect(share.taken).toBe(15);
    share.release();
    share.release();
    expect(budget.held).toBe(0);
  });

  it('admits an exchange larger than the budget when nothing is held, alone', async () => {
    const budget = new InFlightBudget(10);
    const big = now(budget.admit(() => 50, 1));
    let small: BudgetShare | undefined;
    void Promise.resolve(budget.admit(() => 1, 1)).then((share) => (small = share));
    await Promise.resolve();
    expect(small).toBeUndefined();
    big.release();
    await Promise.resolve();
    await Promise.resolve();
    expect(small).toBeDefined();
  });

  it('asks a waiting exchange for its reservation when it is its turn, not when it came', async () => {
    const budget = new InFlightBudget(10);
    const first = now(budget.admit(() => 1, 1));
    first.take(10);
    let size = 1;
    const started: number[] = [];
    for (const n of [1, 2, 3]) void Promise.resolve(budget.admit(() => size, 1)).then(() => started.push(n));
    // What came to be known while they waited: each is 6, so only one fits at a time.
    size = 6;
    first.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1]);
    expect(budget.held).toBe(6);
  });
});
