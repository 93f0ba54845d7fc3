import type { SealOutcome, TimedSeal } from './seal.js';
import { LEVEL_TARGET_RATIO } from './seal-levels.js';

/** The issue's sealing targets: p50 submit-to-sealed at idle, a large seal's memory against a small one's, GET kept. */
export const SEAL_TARGETS = { idleP50Ms: 500, largeMemoryRatio: 2, getRatio: 0.85, loadedRatio: 3 } as const;

const MIB = 1024 ** 2;
const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const mib = (bytes: number) => `${(bytes / MIB).toFixed(0)} MiB`;

/** The nearest-rank percentile of `values` (NaN when there are none). */
function percentile(values: number[], p: number): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const clientMs = (seal: TimedSeal) => seal.sealedSeenAt - seal.sentAt;
const serverMs = (seal: TimedSeal) => (seal.storedAt === undefined ? Number.NaN : seal.storedAt - seal.receivedAt);
const poolMs = (seal: TimedSeal) => seal.poolMs ?? Number.NaN;
const spread = (values: number[]) => `p50 ${integer(percentile(values, 50))} ms, p95 ${integer(percentile(values, 95))} ms`;
const each = (values: number[]) => values.map((value) => `${integer(value)} ms`).join(', ');

type Target = (label: string, value: string, goal: string, pass: boolean | null) => void;

/**
 * The sealing section of the report: the documents, the targets (through `target`, the report's own line format)
 * and the figures behind them.
 */
export function printSealing(sealing: SealOutcome, out: (line?: string) => void, target: Target): void {
  const { small, large } = sealing.documents;
  const { getIdle, getDuringSeals } = sealing.results;
  // The client's figure: what a signer's app waits, round trips and polling included (the server's is below it).
  const idleP50 = percentile(sealing.idle.map(clientMs), 50);
  if (sealing.idle.length > 0) {
    target('seal: p50 submit-to-sealed, 3 pages, idle', `${integer(idleP50)} ms`, `target < ${SEAL_TARGETS.idleP50Ms} ms`, idleP50 < SEAL_TARGETS.idleP50Ms);
  }
  const { loaded } = sealing;
  if (loaded && sealing.idle.length > 0) {
    const loadedP50 = percentile(loaded.small.map(clientMs), 50);
    const ratio = loadedP50 / idleP50;
    // The label fits the report's column; "loaded:" below says what loaded it.
    target('seal: p50 3 pages, loaded / idle', ratio.toFixed(2), `target <= ${SEAL_TARGETS.loadedRatio}`, ratio <= SEAL_TARGETS.loadedRatio);
  }
  if (sealing.levels && sealing.levels.bt.length > 0) {
    const bt = percentile(sealing.levels.bt.map(clientMs), 50);
    const lta = percentile(sealing.levels.lta.map(clientMs), 50);
    target('seal: p50 3 pages, B-T', `${integer(bt)} ms`, 'local TSA', null);
    target('seal: p50 3 pages, B-LTA', `${integer(lta)} ms`, 'local TSA, OCSP, CRL', null);
    target('seal: p50 B-LTA / B-T', (lta / bt).toFixed(2), `target <= ${LEVEL_TARGET_RATIO}`, lta / bt <= LEVEL_TARGET_RATIO);
  }
  if (sealing.memory) {
    const ratio = sealing.memory.largePeakBytes / sealing.memory.smallPeakBytes;
    const goal = `target < ${SEAL_TARGETS.largeMemoryRatio.toFixed(2)}`;
    target(`seal: worker peak RSS ${large.pageCount} / 3 pages`, ratio.toFixed(2), goal, ratio < SEAL_TARGETS.largeMemoryRatio);
  }
  if (getIdle && getDuringSeals) {
    const ratio = getDuringSeals.requestsPerSecond / getIdle.requestsPerSecond;
    target('GET during a seal burst / idle (f/e)', ratio.toFixed(2), `target >= ${SEAL_TARGETS.getRatio.toFixed(2)}`, ratio >= SEAL_TARGETS.getRatio);
  }
  out();
  out(
    `sealing:    a server of its own (embedded store file:<tmp>/seal.db, SEAL_WORKER on, ${sealing.workers} PDF worker` +
      `${sealing.workers === 1 ? '' : 's'} at the default PDF_WORKERS, generated development certificate, no timestamp authority); ` +
      `setup ${(sealing.setupMs / 1000).toFixed(1)} s before timing; exit code after SIGTERM: ${sealing.serverExitCode}`,
  );
  out(
    `documents:  text-only sample agreements (generateSamplePdf): 3 pages, ${integer(small.bytes)} bytes, ${small.fields} fields ` +
      `on pages ${small.fieldPages.join(' and ')} (2 text, initials, checkbox, signature, date); ` +
      (large.fields > 0
        ? `${large.pageCount} pages, ${integer(large.bytes)} bytes, ${large.fields} fields on page ${large.fieldPages.join(', ')} (checkbox, signature, date)`
        : `${large.pageCount}-page document not run`),
  );
  out(`            signatures are the submit phase's ${integer(20 * 1024)}-byte PNG; each submission to its own never-submitted document`);
  out(
    `"sealed":   client side, from sending the submission until GET /documents/{id} shows sealing.status "sealed" ` +
      `(polled every ${sealing.pollMs} ms); server side, from the submission's timestamp until the server logged the seal stored`,
  );
  if (sealing.idle.length > 0) {
    out(`idle:       ${sealing.idle.length} 3-page submissions one at a time, each waited for (after 1 warm-up seal, not counted)`);
    out(`            submit-to-sealed, client:  ${spread(sealing.idle.map(clientMs))}`);
    out(`            submit-to-sealed, server:  ${spread(sealing.idle.map(serverMs))}; of which the seal in the pool ${spread(sealing.idle.map(poolMs))}`);
  }
  if (sealing.burst) {
    const { seals, seconds } = sealing.burst;
    const stored = seals.map((seal) => seal.storedAt ?? Number.NaN);
    const serverSeconds = (Math.max(...stored) - Math.min(...seals.map((seal) => seal.receivedAt))) / 1000;
    out(
      `burst:      ${seals.length} 3-page submissions sent at once: all seen sealed after ${seconds.toFixed(2)} s = ` +
        `${(seals.length / seconds).toFixed(1)} sealed/s (server side: ${serverSeconds.toFixed(2)} s = ${(seals.length / serverSeconds).toFixed(1)} sealed/s); ` +
        `seal in the pool ${spread(seals.map(poolMs))}`,
    );
  }
  if (sealing.large.length > 0) {
    out(
      `${large.pageCount} pages:  ${sealing.large.length} one at a time: submit-to-sealed (client) ${each(sealing.large.map(clientMs))}; ` +
        `the seal in the pool ${each(sealing.large.map(poolMs))}`,
    );
  }
  if (loaded) {
    out(
      `loaded:     another organization submits a ${integer(loaded.huge.pageCount)}-page document (${integer(loaded.huge.bytes)} bytes, largeTextPdf) and a ` +
        `one-page document whose full-page image field gets a ${loaded.photo.side}² 16-bit RGBA PNG (${integer(loaded.photo.bytes)} bytes); then ` +
        `${loaded.small.length} 3-page submissions one at a time, ${loaded.whileHuge} of them sealed while the large one was still unsealed`,
    );
    out(
      `            submit-to-sealed, client:  ${spread(loaded.small.map(clientMs))} = ${(percentile(loaded.small.map(clientMs), 50) / idleP50).toFixed(2)} × ` +
        `the idle p50 (${integer(idleP50)} ms); of which the seal in the pool ${spread(loaded.small.map(poolMs))}`,
    );
    const { hugeSeal, photoSeal } = loaded;
    out(
      `            ${integer(loaded.huge.pageCount)} pages: submit-to-sealed (client) ${each([clientMs(hugeSeal)])}, ` +
        `the seal in the pool ${each([poolMs(hugeSeal)])}; ` +
        `photo: submit-to-sealed ${each([clientMs(photoSeal)])}, the seal in the pool ${each([poolMs(photoSeal)])}`,
    );
  }
  if (sealing.levels && sealing.levels.bt.length > 0) {
    const { bt, lta } = sealing.levels;
    out(
      `levels:     two more servers, one sealing at PAdES B-T and one at B-LTA (SIGNET_PADES_LEVEL), same certificate (root → intermediate → signer ` +
        `of the test PKI), local openssl ts authority, openssl ocsp responder and CRL server; ${bt.length} 3-page seals each, alternating, each waited for ` +
        `(after 1 warm-up seal each), every one read back at its level`,
    );
    out(`            submit-to-sealed, client:  B-T ${spread(bt.map(clientMs))}; B-LTA ${spread(lta.map(clientMs))}`);
  }
  if (sealing.memory) {
    const { idleBytes, smallPeakBytes, largePeakBytes } = sealing.memory;
    out(
      `memory:     ${sealing.workers === 1 ? "the PDF worker's" : `the largest of the ${sealing.workers} PDF workers'`} resident memory, sampled every 20 ms: ${mib(idleBytes)} idle after the warm-up seal; ` +
        `peak ${mib(smallPeakBytes)} sealing 3 pages (idle and burst), ${mib(largePeakBytes)} sealing ${large.pageCount} pages ` +
        `(ratio ${(largePeakBytes / smallPeakBytes).toFixed(2)}); above idle: +${mib(smallPeakBytes - idleBytes)} vs +${mib(largePeakBytes - idleBytes)}`,
    );
  }
  if (sealing.getBurst && getDuringSeals) {
    const { submitted, sealedInWindow, unsealedAfter } = sealing.getBurst;
    const seconds = (getDuringSeals.window.end - getDuringSeals.window.start) / 1000;
    const cores = getDuringSeals.cpu ? `; the PDF workers used ${getDuringSeals.cpu.watched.toFixed(2)} cores meanwhile` : '';
    out(
      `GET burst:  ${submitted} 3-page submissions sent (8 at a time) right before f's warm-up; ${sealedInWindow} seals stored during its ` +
        `${seconds.toFixed(0)} s measured window (${(sealedInWindow / seconds).toFixed(1)}/s)${cores}; ${unsealedAfter} still unsealed after it`,
    );
    if (unsealedAfter === 0) out('WARNING: the seal queue emptied before f ended: part of f ran without sealing; raise BENCH_SEAL_GET_BURST');
  }
  if (sealing.failedAttempts > 0) out(`WARNING: the sealing server logged ${sealing.failedAttempts} failed seal attempts`);
}
