import type { IsoTime } from './types.js';

/*
 * What every table's queries share: times are stored as epoch milliseconds and become ISO strings only at the edge
 * (the row mappers of `queries/`), and files are stored in chunks (`chunks.ts`).
 */

/** Size of the pieces a document's file is stored in, so that a range read loads only the pieces it covers. */
export const CHUNK_SIZE = 256 * 1024;

/** Epoch milliseconds of an ISO time; throws on a string that is not a time. */
export function toMillis(time: IsoTime): number {
  const ms = Date.parse(time);
  if (!Number.isFinite(ms)) throw new Error(`Not a valid time: ${JSON.stringify(time)}`);
  return ms;
}

/** `toMillis`, with null kept. */
export function toMillisOrNull(time: IsoTime | null): number | null {
  return time === null ? null : toMillis(time);
}

/** The ISO time of epoch milliseconds. */
export function toIso(ms: number): IsoTime {
  return new Date(ms).toISOString();
}

/** `toIso`, with null kept. */
export function toIsoOrNull(ms: number | null): IsoTime | null {
  return ms === null ? null : toIso(ms);
}

/** Which chunks hold bytes `start` to `end` (inclusive), and where the range begins in the first of them. */
export function chunkSpan(start: number, end: number): { first: number; last: number; offset: number } {
  const first = Math.floor(start / CHUNK_SIZE);
  return { first, last: Math.floor(end / CHUNK_SIZE), offset: start - first * CHUNK_SIZE };
}

/** Bytes `offset` to `offset + length` of the concatenated `chunks`, copying only when the range spans several. */
export function sliceChunks(chunks: Uint8Array[], offset: number, length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!.subarray(offset, offset + length);
  return Buffer.concat(chunks).subarray(offset, offset + length);
}
