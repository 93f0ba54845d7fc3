import type { LiveMailServer } from '@signet/server/testing';
import { tsImport } from 'tsx/esm/api';
import type { BrowserCommand } from 'vitest/node';

/*
 * Browser-test commands of signers who prove who they are (docs/signer-auth.md): a live server of their own that
 * sends e-mail to a local catcher, so a test reads the code from the message the signer would receive.
 */

const SHARED = Symbol.for('signet.viewer-tests.live-mail-server');
const shared = ((globalThis as { [SHARED]?: { live?: Promise<LiveMailServer> } })[SHARED] ??= {});
const mailServer = () =>
  (shared.live ??= (tsImport('@signet/server/testing', import.meta.url) as Promise<typeof import('@signet/server/testing')>).then((testing) =>
    testing.startLiveMailServer(),
  ));

/** Closes the mail server, if a test started it. */
export async function closeLiveMailServer(): Promise<void> {
  await (await shared.live)?.close();
  shared.live = undefined;
}

/** A two-signer lease whose tenant proves who they are, with the tenant's session key. */
export interface VerifiedLease {
  baseUrl: string;
  documentId: string;
  tenantKey: string;
  tenantEmail: string;
}

const createVerifiedLease: BrowserCommand<[auth: 'email_code' | 'access_code', accessCode?: string]> = async (_context, auth, accessCode) => {
  const { server } = await mailServer();
  const { LEASE_SIGNERS, sampleLeaseFields } = (await tsImport('@signet/server/testing', import.meta.url)) as typeof import('@signet/server/testing');
  const tenantEmail = `tina-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const document = await server.test.createDocument({
    pages: 2,
    fields: sampleLeaseFields(2),
    signers: [{ ...LEASE_SIGNERS[0]!, email: tenantEmail, auth, ...(accessCode ? { accessCode } : {}) }, LEASE_SIGNERS[1]!],
    signingOrder: 'parallel',
  });
  return { baseUrl: server.url, documentId: document.id, tenantKey: await server.createSession(document.id, 'tenant'), tenantEmail };
};

/** The 6-digit code of the `count`-th message e-mailed to `to`. */
const emailedCode: BrowserCommand<[to: string, count?: number]> = async (_context, to, count = 1) => {
  const { catcher } = await mailServer();
  const message = await catcher.waitFor(to, { count });
  return /\b(\d{6})\b/.exec(message.text)![1]!;
};

export const verificationCommands = { createVerifiedLease, emailedCode };

declare module 'vitest/browser' {
  interface BrowserCommands {
    createVerifiedLease(auth: 'email_code' | 'access_code', accessCode?: string): Promise<VerifiedLease>;
    emailedCode(to: string, count?: number): Promise<string>;
  }
}
