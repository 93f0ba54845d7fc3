import type { SealJobSizeLimit } from '../storage/types.js';

/** How a seal's time and memory limits follow its document (docs/api-guide.md, "The signed document", "Large documents"; docs/decisions.md). */
export interface SealLimits {
  /** Time a seal may take per page of its document, on top of `PDF_TASK_TIMEOUT_MS` (ms). */
  msPerPage: number;
  /** Time a seal may take per MiB of its document, on top of `PDF_TASK_TIMEOUT_MS` (ms). */
  msPerMib: number;
  /** The ceiling: no attempt of any seal is given more time than this (ms). */
  maxMs: number;
  /** Resident memory a PDF worker may reach while sealing (MiB); uploads and previews keep `PDF_WORKER_MEMORY_MB`. */
  memoryMb: number;
}

export const DEFAULT_SEAL_LIMITS: SealLimits = { msPerPage: 5, msPerMib: 1000, maxMs: 180_000, memoryMb: 2048 };

const MIB = 1024 * 1024;

/** What a document adds to the base time of a seal: its pages and its bytes, weighted (ms). */
function sizeCost(limits: SealLimits, document: { pageCount: number; fileSize: number }): number {
  return document.pageCount * limits.msPerPage + (document.fileSize / MIB) * limits.msPerMib;
}

/**
 * The time an attempt of a seal is given: the pool's base task time plus the document's pages and bytes, doubled
 * for each attempt before it (an attempt stopped at its limit is never run again with the same one), at most
 * `maxMs`.
 * @example sealTimeLimit(DEFAULT_SEAL_LIMITS, 10_000, { pageCount: 10_000, fileSize: 24 * 2 ** 20 }, 1) // 84_000
 */
export function sealTimeLimit(
  limits: SealLimits,
  baseMs: number,
  document: { pageCount: number; fileSize: number },
  attempt: number,
): number {
  const first = baseMs + sizeCost(limits, document);
  return Math.round(Math.min(limits.maxMs, first * 2 ** Math.max(0, attempt - 1)));
}

/**
 * A document is large when its size adds more than the base time to its seal (with the defaults: more than 2,000
 * pages, or more than 10 MiB): large documents are sealed by all but one of a process's seal loops, so that one
 * always seals the others.
 * @example isLargeDocument(DEFAULT_SEAL_LIMITS, 10_000, { pageCount: 3, fileSize: 7000 }) // false
 */
export function isLargeDocument(limits: SealLimits, baseMs: number, document: { pageCount: number; fileSize: number }): boolean {
  return sizeCost(limits, document) > baseMs;
}

/** The claim's condition for the loop that takes no large document (`isLargeDocument` in SQL). */
export function smallDocumentSize(limits: SealLimits, baseMs: number): SealJobSizeLimit {
  return { perPage: limits.msPerPage, perByte: limits.msPerMib / MIB, max: baseMs };
}
