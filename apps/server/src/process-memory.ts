import { readFileSync, readdirSync } from 'node:fs';

const PAGE_BYTES = 4096;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The ids of a process's children, from Linux's `/proc` (every thread's list). */
export function childrenOf(pid: number): number[] {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return threads.flatMap((thread) =>
    (read(`/proc/${pid}/task/${thread}/children`) ?? '').split(' ').filter(Boolean).map(Number),
  );
}

/** Resident memory of one process in bytes, or undefined once it has gone (or off Linux). */
export function residentBytes(pid: number): number | undefined {
  const statm = read(`/proc/${pid}/statm`);
  return statm === undefined ? undefined : Number(statm.split(' ')[1]) * PAGE_BYTES;
}

/**
 * Resident memory of a process and all its descendants (a server and its PDF workers), in bytes; Linux only.
 * @example const bytes = treeResidentBytes(server.pid)
 */
export function treeResidentBytes(pid: number): number {
  return childrenOf(pid).reduce((sum, child) => sum + treeResidentBytes(child), residentBytes(pid) ?? 0);
}
