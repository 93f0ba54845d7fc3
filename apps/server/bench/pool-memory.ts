import { readFileSync } from 'node:fs';
import { childrenOf, residentBytes } from '../src/process-memory.js';

/**
 * The server's PDF pool workers: its children running the PDF worker's `entry.ts` (under tsx, the server has another
 * child, esbuild's service, which is not counted).
 */
export function poolWorkerPids(serverPid: number): number[] {
  return childrenOf(serverPid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('/pdf-worker/entry.');
    } catch {
      return false;
    }
  });
}

/** The largest resident memory of any one PDF worker of the server `serverPid` right now (bytes; 0 off Linux). */
export function workerResidentBytes(serverPid: number): number {
  return poolWorkerPids(serverPid).reduce((largest, pid) => Math.max(largest, residentBytes(pid) ?? 0), 0);
}

/**
 * Samples the server's PDF workers every `intervalMs` while `work` runs and returns the largest resident memory one
 * of them reached (a seal runs in one worker, so one worker's peak is what a seal costs).
 * @example const { result, peakBytes } = await withWorkerPeak(server.pid, () => sealOne())
 */
export async function withWorkerPeak<T>(serverPid: number, work: () => Promise<T>, intervalMs = 20): Promise<{ result: T; peakBytes: number }> {
  let peakBytes = workerResidentBytes(serverPid);
  const timer = setInterval(() => {
    peakBytes = Math.max(peakBytes, workerResidentBytes(serverPid));
  }, intervalMs);
  try {
    const result = await work();
    return { result, peakBytes: Math.max(peakBytes, workerResidentBytes(serverPid)) };
  } finally {
    clearInterval(timer);
  }
}
