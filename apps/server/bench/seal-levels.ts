import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { PadesLevel } from '@signet/contract';
import { startChild, type ChildServer } from './child.js';
import { sealClient, type TimedSeal } from './seal.js';
import { createSealFixtures, type SealFixtures } from './seal-fixtures.js';
import { startTestTsa } from '../test/sealing/signing/test-pki.js';
import { startLtvPki } from '../test/sealing/signing/test-ltv-pki.js';

/*
 * The seal phase's PAdES comparison: p50 submit-to-sealed of a 3-page document at B-T and at B-LTA, measured in the
 * same run against the same local authority (`openssl ts`) and revocation services (`openssl ocsp` for the signing
 * certificate, a loopback CRL server for the intermediate and the authority), made by the test PKI
 * (`test/sealing/signing/test-ltv-pki.ts`). Two servers, one per level, each on a store of its own, signing with the
 * same certificate; their seals alternate, one at a time, each waited for until sealed, so that what the machine is
 * doing weighs on both alike. Each seal's level is read back (`sealing.level`): a figure for B-LTA is one of B-LTA
 * seals.
 */

export interface SealLevelsOutcome {
  /** Seals timed at each level, in order (a warm-up seal of each server not counted). */
  bt: TimedSeal[];
  lta: TimedSeal[];
}

/** Target: a B-LTA seal takes at most twice a B-T one (p50, client's view). */
export const LEVEL_TARGET_RATIO = 2;

/**
 * Runs `count` seals at B-T and `count` at B-LTA, alternating.
 * @example const { bt, lta } = await measureSealLevels({ dir, appDir, count: 15, pollMs: 20 })
 */
export async function measureSealLevels(options: { dir: string; appDir: string; count: number; pollMs: number }): Promise<SealLevelsOutcome> {
  const pki = await startLtvPki();
  const tsa = await startTestTsa({ pki });
  const servers: ChildServer[] = [];
  try {
    const start = async (level: PadesLevel) => {
      const dir = join(options.dir, `seal-${level}`);
      await mkdir(dir, { recursive: true });
      const fixtures = await createSealFixtures(dir, { small: options.count + 1, large: 1, largePages: 1, heavy: null });
      const server = await startChild({
        script: 'bench/serve.ts',
        cwd: options.appDir,
        env: {
          ...process.env,
          DATABASE_URL: fixtures.databaseUrl,
          BENCH_SERVER_LOG: join(dir, 'server.log'),
          SEAL_WORKER: 'true',
          SIGNET_SIGNING_P12: pki.signer.path,
          SIGNET_SIGNING_P12_PASSWORD: pki.signer.password,
          SIGNET_TSA_URL: tsa.url,
          SIGNET_PADES_LEVEL: level,
        },
      });
      servers.push(server);
      return { level, server, fixtures, client: sealClient(server.url, fixtures, options.pollMs) };
    };
    const bt = await start('B-T');
    const lta = await start('B-LTA');
    const once = async (at: typeof bt) => {
      const seal = await at.client.submit(at.fixtures.small, at.client.take(at.fixtures.small));
      await at.client.waitSealed([seal], 60_000);
      await expectLevel(at.server.url, at.fixtures, seal.documentId, at.level);
      return seal;
    };
    // The first seal of a worker loads fonts, PDFium and the signing code: not counted.
    await once(bt);
    await once(lta);
    const timed: SealLevelsOutcome = { bt: [], lta: [] };
    for (let i = 0; i < options.count; i++) {
      timed.bt.push(await once(bt));
      timed.lta.push(await once(lta));
    }
    return timed;
  } finally {
    for (const server of servers) await server.stop();
    await tsa.close();
    await pki.close();
  }
}

async function expectLevel(url: string, fixtures: SealFixtures, documentId: string, level: PadesLevel): Promise<void> {
  const response = await fetch(`${url}/documents/${documentId}`, { headers: { 'X-API-Key': fixtures.readKey } });
  const sealing = ((await response.json()) as { data: { sealing: { level?: string } } }).data.sealing;
  if (sealing.level !== level) throw new Error(`${documentId} was sealed ${sealing.level ?? 'without a level'}, not ${level}`);
}
