import type { LiveServer } from '@signet/server/testing';
import { tsImport } from 'tsx/esm/api';
import type { BrowserCommand } from 'vitest/node';

/**
 * Browser-test commands: they run in Vitest's Node process, where one real Signet server listens on a free port,
 * and give the browser fresh documents and keys on it, and what it stored.
 */
let live: Promise<LiveServer> | undefined;

// Vitest loads its config (and so these commands) with Node's own loader, which cannot read the server's
// TypeScript sources; tsx can.
const testing = () => tsImport('@signet/server/testing', import.meta.url) as Promise<typeof import('@signet/server/testing')>;
const server = () =>
  (live ??= testing().then(
    ({ startLiveServer }) => startLiveServer(),
  ));

/** Closes the server, if a test started it. */
export async function closeLiveServer(): Promise<void> {
  await (await live)?.close();
  live = undefined;
}

export interface CreatedDocument {
  baseUrl: string;
  documentId: string;
  apiKey: string;
}

const createDocument: BrowserCommand<[]> = async (): Promise<CreatedDocument> => {
  const s = await server();
  const document = await s.createDocument({ pages: 1 });
  return { baseUrl: s.url, documentId: document.id, apiKey: await s.createKey() };
};

/** Whether the server stored a submission for `documentId`. */
const hasSubmission: BrowserCommand<[documentId: string]> = async (_context, documentId) => {
  const { findSubmissionForDocument } = await testing();
  return Boolean(await findSubmissionForDocument((await server()).test.storage.db.query, documentId));
};

export const embedCommands = { createDocument, hasSubmission };

declare module 'vitest/browser' {
  interface BrowserCommands {
    createDocument(): Promise<CreatedDocument>;
    hasSubmission(documentId: string): Promise<boolean>;
  }
}
