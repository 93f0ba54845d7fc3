import fc from 'fast-check';

/**
 * The random source of one fuzz case: fast-check's imperative generator, seeded per case, so that a case can be
 * drawn again on its own from its seed and index.
 */
export type Draw = fc.GeneratorValue;

const uniformArbitrary = (max: number) => fc.noBias(fc.integer({ min: 0, max }));

/**
 * The draw of case `index` of a run seeded with `seed`: the same pair gives the same draws on every machine.
 * @example const g = drawFor(42, 7); const n = uniform(g, 9)
 */
export function drawFor(seed: number, index: number): Draw {
  return fc.sample(fc.gen(), { seed: (seed + index) | 0, numRuns: 1 })[0]!;
}

/** A whole number in [0, max], every one equally likely (fast-check's own integers lean to the edges). */
export function uniform(g: Draw, max: number): number {
  return g(uniformArbitrary, max);
}

/** True with probability `p`. */
export function chance(g: Draw, p: number): boolean {
  return uniform(g, 9999) < p * 10_000;
}

/** One of `items`, equally likely. */
export function pick<T>(g: Draw, items: readonly T[]): T {
  return items[uniform(g, items.length - 1)]!;
}

/**
 * One of the weighted options, by weight; the chosen function is called with `g`.
 * @example weighted(g, [[9, () => 'usual'], [1, () => 'rare']])
 */
export function weighted<T>(g: Draw, options: ReadonlyArray<readonly [number, (g: Draw) => T]>): T {
  const total = options.reduce((sum, [weight]) => sum + weight, 0);
  let at = uniform(g, total - 1);
  for (const [weight, make] of options) {
    if (at < weight) return make(g);
    at -= weight;
  }
  throw new Error('unreachable: weights exhausted');
}

/** `length` random bytes: one draw seeds a xorshift32 stream, so a megabyte costs no more draws than a byte. */
export function randomBytes(g: Draw, length: number): Uint8Array {
  let state = uniform(g, 0x7fff_fffe) + 1;
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

/** `length` letters and digits, as ids and key secrets are made of. */
export function alphanumeric(g: Draw, length: number): string {
  return g(fc.string, { unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'), minLength: length, maxLength: length });
}

/** What a header may carry in a Web `Headers` (a byte string without NUL, CR or LF). */
export function headerSafe(value: string): string {
  return value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
}
