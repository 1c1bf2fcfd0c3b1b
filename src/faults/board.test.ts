import { describe, expect, it } from 'vitest';
import { FaultBoard } from './board.js';
import { parseFaultFlag, parseFaultPlan } from './plan.js';
import { faultHits } from './fault.js';

describe('fault plans', () => {
  it('reads --fault flags', () => {
    expect(parseFaultFlag('meta/setting=reset')).toEqual({ operation: 'meta/setting', fault: { kind: 'reset' } });
    expect(parseFaultFlag('delay:200-800')).toEqual({ fault: { kind: 'delay', ms: [200, 800] } });
    expect(parseFaultFlag('*=status')).toEqual({ fault: { kind: 'status', status: 500 } });
    expect(parseFaultFlag('ad_config=envelope:-3')).toEqual({ operation: 'ad_config', fault: { kind: 'envelope', result: -3 } });
  });

  it.each([
    ['meta/nope=reset', /"operation" must be one of ad_config, meta\/cp/],
    ['meta/cp=explode', /Kinds: delay, status, envelope, malformed-json, empty, reset, hang/],
    ['delay:99999999', /--fault delay:99999999: Invalid fault: "ms"/],
  ])('names what is wrong in --fault %s', (flag, message) => {
    expect(() => parseFaultFlag(flag)).toThrow(message);
  });

  it('bounds times', () => {
    expect(() => parseFaultPlan({ kind: 'reset', times: 1e9 })).toThrow(/"times" must be an integer from 1 to 100000/);
    expect(() => parseFaultPlan({ kind: 'reset', times: 0 })).toThrow(/"times"/);
  });

  it('applies a planned fault to the next `times` requests of its operation only', () => {
    const board = new FaultBoard();
    board.add({ operation: 'meta/setting', fault: { kind: 'reset' }, times: 2 });
    expect(board.take('meta/cp')).toBeUndefined();
    expect(board.take('meta/setting')).toEqual({ kind: 'reset' });
    expect(board.take('meta/setting')).toEqual({ kind: 'reset' });
    expect(board.take('meta/setting')).toBeUndefined();
    expect(board.list()[0]).toMatchObject({ fired: 2, remaining: 0 });
  });

  it('hits a deterministic share with a rate and seed', () => {
    const hits = (seed: number) => Array.from({ length: 1000 }, (_, n) => faultHits({ rate: 0.3, seed }, n));
    const share = hits(7).filter(Boolean).length / 1000;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
    expect(hits(7)).toEqual(hits(7));
    expect(hits(8)).not.toEqual(hits(7));
  });
});
