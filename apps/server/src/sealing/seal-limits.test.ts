import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { DEFAULT_SEAL_LIMITS, isLargeDocument, sealTimeLimit, smallDocumentSize } from './seal-limits.js';

const MIB = 1024 * 1024;

describe('seal limits', () => {
  it('adds 5 ms a page and 1 s a MiB to the base, doubles it each attempt, and stops at the ceiling', () => {
    const small = { pageCount: 3, fileSize: MIB / 2 };
    const huge = { pageCount: 10_000, fileSize: 25 * MIB };
    expect(sealTimeLimit(DEFAULT_SEAL_LIMITS, 10_000, small, 1)).toBe(10_515);
    expect(sealTimeLimit(DEFAULT_SEAL_LIMITS, 10_000, huge, 1)).toBe(85_000);
    expect(sealTimeLimit(DEFAULT_SEAL_LIMITS, 10_000, huge, 2)).toBe(170_000);
    expect(sealTimeLimit(DEFAULT_SEAL_LIMITS, 10_000, huge, 3)).toBe(180_000);
    expect(sealTimeLimit(DEFAULT_SEAL_LIMITS, 10_000, small, 5)).toBe(168_240);
    expect(sealTimeLimit(DEFAULT_SEAL_LIMITS, 10_000, small, 30)).toBe(180_000);
  });

  it('calls a document large past 2,000 pages or 10 MiB with the defaults, as the claim does in SQL', () => {
    expect(isLargeDocument(DEFAULT_SEAL_LIMITS, 10_000, { pageCount: 2000, fileSize: 0 })).toBe(false);
    expect(isLargeDocument(DEFAULT_SEAL_LIMITS, 10_000, { pageCount: 2001, fileSize: 0 })).toBe(true);
    expect(isLargeDocument(DEFAULT_SEAL_LIMITS, 10_000, { pageCount: 0, fileSize: 10 * MIB })).toBe(false);
    expect(isLargeDocument(DEFAULT_SEAL_LIMITS, 10_000, { pageCount: 1, fileSize: 10 * MIB })).toBe(true);
    expect(smallDocumentSize(DEFAULT_SEAL_LIMITS, 10_000)).toEqual({ perPage: 5, perByte: 1000 / MIB, max: 10_000 });
  });

  it('reads its settings, and refuses a ceiling below the base task time', () => {
    const config = loadConfig({ SEAL_TIMEOUT_PER_PAGE_MS: '2', SEAL_TIMEOUT_PER_MIB_MS: '500', SEAL_TIMEOUT_MAX_MS: '60000', SEAL_MEMORY_MB: '1024' });
    expect(config.sealing.limits).toEqual({ msPerPage: 2, msPerMib: 500, maxMs: 60_000, memoryMb: 1024 });
    expect(config.pdfPool.taskMemoryCeilingMb).toBe(1024);
    expect(loadConfig({}).sealing.limits).toEqual(DEFAULT_SEAL_LIMITS);
    expect(() => loadConfig({ PDF_TASK_TIMEOUT_MS: '20000', SEAL_TIMEOUT_MAX_MS: '10000' })).toThrow(
      'Invalid configuration: SEAL_TIMEOUT_MAX_MS: must not be below PDF_TASK_TIMEOUT_MS',
    );
    expect(() => loadConfig({ SEAL_MEMORY_MB: '64' })).toThrow(/SEAL_MEMORY_MB/);
  });
});
