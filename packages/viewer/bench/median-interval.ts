import { binomialDistribution } from 'simple-statistics';

/**
 * A distribution-free confidence interval of the median of `values` (no assumption about the shape of the noise):
 * the k-th smallest and k-th largest value, with k the largest rank that the binomial distribution (n, ½) allows at
 * this confidence. Null when there are too few values (fewer than 6 at 95 %).
 * @example medianInterval([0.9, 1.1, 0.95, 1.0, 0.97, 1.02, 0.99, 1.05, 0.93]) // [0.93, 1.05]
 */
export function medianInterval(values: readonly number[], confidence = 0.95): [number, number] | null {
  const sorted = [...values].sort((a, b) => a - b);
  const probabilities = binomialDistribution(sorted.length, 0.5) ?? [];
  let k = 0;
  // Each side may hold the chance that fewer than k + 1 of the n values fall below the median.
  for (let below = 0; k < sorted.length >> 1 && 2 * (below + probabilities[k]!) <= 1 - confidence; k++) below += probabilities[k]!;
  return k === 0 ? null : [sorted[k - 1]!, sorted[sorted.length - k]!];
}
