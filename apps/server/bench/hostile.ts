import { uploadPdf } from '../test/hardening/hostile-pdfs.js';
import { treeResidentBytes } from '../src/process-memory.js';

/** What the hostile uploads did while a phase ran, and the most memory the server's processes held. */
export interface HostileLoad {
  uploads: number;
  statusCounts: Record<string, number>;
  /** Resident memory of the server and its PDF workers together, read every 50 ms (bytes). */
  peakBytes: number;
}

/**
 * Runs `phase` while `uploaders` clients upload the hostile PDFs to `url` in a loop, one after another each, and
 * the server's memory (all its processes) is sampled.
 * @example const { result, hostile } = await underHostileUploads({ url, pid, key, pdfs }, () => runPhase(…))
 */
export async function underHostileUploads<T>(
  server: { url: string; pid: number; key: string; pdfs: Uint8Array[]; uploaders?: number },
  phase: () => Promise<T>,
): Promise<{ result: T; hostile: HostileLoad }> {
  const hostile: HostileLoad = { uploads: 0, statusCounts: {}, peakBytes: 0 };
  let running = true;
  const memory = setInterval(() => {
    hostile.peakBytes = Math.max(hostile.peakBytes, treeResidentBytes(server.pid));
  }, 50);
  const uploader = async (offset: number) => {
    for (let index = offset; running; index++) {
      let status = 'error';
      try {
        const response = await uploadPdf(server.url, server.key, server.pdfs[index % server.pdfs.length]!);
        await response.arrayBuffer();
        status = String(response.status);
      } catch {
        // counted as 'error'
      }
      hostile.uploads++;
      hostile.statusCounts[status] = (hostile.statusCounts[status] ?? 0) + 1;
    }
  };
  const uploaders = Array.from({ length: server.uploaders ?? 2 }, (_, i) => uploader(i * 3));
  try {
    const result = await phase();
    return { result, hostile };
  } finally {
    running = false;
    await Promise.all(uploaders);
    clearInterval(memory);
  }
}
