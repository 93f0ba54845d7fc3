import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { PdfPool } from '../pdf/pool/index.js';
import type { Storage } from '../storage/types.js';
import { SealError } from './errors.js';
import type { JobKind } from '../jobs/types.js';
import { sealKind, type SealKindOptions } from './seal-kind.js';
import type { ClaimedSeal } from './seal-queue.js';
import { signedDocumentUrlBase } from '../webhooks/start.js';
import { resolveSigningKey, type SigningCredential } from './signing/credentials.js';
import type { SealingKey } from './types.js';

/**
 * The signing key of this process, resolved once (the configured P12 or PKCS#11 key, or the generated development certificate)
 * and kept. A key that cannot be used is not fatal: the server keeps serving, each seal fails with the reason
 * (`signet jobs list`), and it is looked up again on the next attempt, so a fixed file is picked up by
 * `signet jobs retry` without a restart.
 */
export function signingKeyProvider(options: {
  config: Config;
  storage: Storage;
  secret: string;
  logger: Logger;
}): () => Promise<SealingKey> {
  const { config, storage, secret, logger } = options;
  let resolved: Promise<SigningCredential> | undefined;
  return async () => {
    resolved ??= resolveSigningKey({ sealing: config.sealing, databaseUrl: config.databaseUrl, secret, storage, logger });
    try {
      const credential = await resolved;
      return 'pkcs11' in credential ? { pkcs11: credential.pkcs11 } : { p12: credential.p12, password: credential.password };
    } catch (error) {
      resolved = undefined;
      throw new SealError(`The signing certificate cannot be used: ${(error as Error).message}`, { retryable: false, cause: error });
    }
  };
}

/**
 * The `seal` job kind of this process, with its signing key looked up at once so that a warning (the development
 * certificate) or an error (an unusable one) is logged at startup rather than at the first seal.
 * @example runner.register(await sealJobKind({ config, storage, pdfPool, secret, logger }));
 */
export async function sealJobKind(options: {
  config: Config;
  storage: Storage;
  pdfPool: PdfPool;
  secret: string;
  logger: Logger;
  onSealEnded?: SealKindOptions['onSealEnded'];
}): Promise<JobKind<ClaimedSeal>> {
  const { config, storage, pdfPool, logger, onSealEnded } = options;
  const signingKey = signingKeyProvider(options);
  await signingKey().catch((error: Error) => logger.error({ reason: error.message }, 'sealing will fail until the signing certificate is fixed'));
  return sealKind({
    storage,
    pdfPool,
    config: config.sealing,
    signingKey,
    concurrency: config.pdfPool.workers,
    publicBaseUrl: signedDocumentUrlBase(config),
    ...(onSealEnded ? { onSealEnded } : {}),
  });
}
