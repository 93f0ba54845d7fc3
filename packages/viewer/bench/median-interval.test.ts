import { describe, expect, it } from 'vitest';
import { medianInterval } from './median-interval.js';

const ranks = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('medianInterval', () => {
  it('gives the order statistics of the published tables (n = 20: 6th and 15th at 95 %, 4th and 17th at 99 %)', () => {
    expect(medianInterval(ranks(20))).toEqual([6, 15]);
    expect(medianInterval(ranks(20), 0.99)).toEqual([4, 17]);
    expect(medianInterval(ranks(9))).toEqual([2, 8]);
  });

  it('does not depend on the order of the values', () => {
    expect(medianInterval([0.9, 1.1, 0.95, 1.0, 0.97, 1.02, 0.99, 1.05, 0.93])).toEqual([0.93, 1.05]);
  });

  it('is the whole range for 6 values, and null for fewer (even the whole range covers less than 95 %)', () => {
    expect(medianInterval([3, 1, 6, 2, 5, 4])).toEqual([1, 6]);
    expect(medianInterval([1, 2, 3, 4, 5])).toBeNull();
    expect(medianInterval([])).toBeNull();
  });
});
