import type { SignerAuth } from '@signet/contract';
import { validationError } from '../errors.js';

/**
 * Refuses signers with `auth: "email_code"` on a server that sends no e-mail (`SIGNET_SMTP_URL` unset): their code
 * could never reach them. A 400 naming the first, e.g. `signers[1].auth`.
 * @example assertEmailCodesSendable(body.signers, deps.config.mail !== undefined)
 */
export function assertEmailCodesSendable(signers: ReadonlyArray<{ auth?: SignerAuth | undefined }> | undefined, mailConfigured: boolean, path = 'signers'): void {
  if (mailConfigured || !signers) return;
  const index = signers.findIndex((signer) => signer.auth === 'email_code');
  if (index >= 0) throw validationError(`${path}[${index}].auth`, '"email_code" needs a server that sends e-mail (SIGNET_SMTP_URL is not set)');
}
