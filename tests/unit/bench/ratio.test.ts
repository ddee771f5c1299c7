import { describe, expect, it } from 'vitest';
import { judgeRatio, printTable, ratioRow } from '../../../bench/lib/util';

const ms = (n: number) => `${n} ms`;

describe('bench goals judged by a ratio against a baseline of the same run', () => {
  it('meets an at-most goal at or under the ratio and misses it over', () => {
    expect(judgeRatio(200, 100, { atMost: 2 })).toEqual({ ratio: 2, met: true });
    expect(judgeRatio(201, 100, { atMost: 2 }).met).toBe(false);
  });

  it('meets an at-least goal (throughput) at or over the ratio and misses it under', () => {
    expect(judgeRatio(15, 100, { atLeast: 0.15 }).met).toBe(true);
    expect(judgeRatio(14, 100, { atLeast: 0.15 }).met).toBe(false);
  });

  it('judges the ratio, not the absolute figure: a slow machine slows both', () => {
    // 2,783 ms would miss any absolute 1 s goal; against its own 2,200 ms baseline it is 1.27 ×.
    expect(judgeRatio(2783, 2200, { atMost: 1.3 }).met).toBe(true);
    expect(judgeRatio(828, 500, { atMost: 1.3 }).met).toBe(false);
  });

  it('reports a missing baseline as not measured, never as met', () => {
    for (const baseline of [undefined, Number.NaN, Number.POSITIVE_INFINITY, 0]) {
      expect(judgeRatio(10, baseline, { atMost: 2 })).toEqual({
        ratio: undefined,
        met: 'not measured',
      });
      // An at-least goal would be "met" by an infinite ratio if 0 were taken as a baseline.
      expect(judgeRatio(10, baseline, { atLeast: 0.15 }).met).toBe('not measured');
    }
  });

  it('reports a missing figure as not measured', () => {
    expect(judgeRatio(undefined, 100, { atMost: 2 }).met).toBe('not measured');
    expect(judgeRatio(Number.NaN, 100, { atLeast: 0.5 }).met).toBe('not measured');
  });

  it('prints the absolute figures, the ratio and the goal in the row', () => {
    const row = ratioRow({
      figure: 'dialog open p95',
      value: 30,
      baseline: 20,
      show: ms,
      baselineIs: 'plain MUI Dialog',
      goal: { atMost: 2 },
    });
    expect(row).toEqual({
      figure: 'dialog open p95',
      value: '30 ms',
      baseline: '20 ms plain MUI Dialog',
      ratio: '1.50',
      goal: '≤ 2 ×',
      met: true,
    });
  });

  it('an extra condition can fail a met ratio but never pass a missing baseline', () => {
    const base = {
      figure: 'statement GET',
      show: (n: number) => `${n}/s`,
      baselineIs: 'bare Fastify',
      goal: { atLeast: 0.15 },
    };
    expect(
      ratioRow({ ...base, value: 50, baseline: 100, also: { ok: false, goal: 'all 2xx' } }).met,
    ).toBe(false);
    const missing = ratioRow({
      ...base,
      value: 50,
      baseline: undefined,
      also: { ok: true, goal: 'all 2xx' },
    });
    expect(missing.met).toBe('not measured');
    expect(missing.baseline).toBe('not measured bare Fastify');
    expect(printTable([missing])).toMatch(/\| not measured \|$/m);
  });
});
