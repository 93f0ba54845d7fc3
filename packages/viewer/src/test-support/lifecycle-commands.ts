import type { LiveServer } from '@signet/server/testing';
import type { BrowserCommand } from 'vitest/node';

/** Browser-test commands of a document's end (docs/lifecycle.md), on the shared live server. */
export function lifecycleCommands(server: () => Promise<LiveServer>) {
  const sessionKey: BrowserCommand<[documentId: string]> = async (_context, documentId) => (await server()).createSession(documentId);
  const endDocument: BrowserCommand<[documentId: string, end: 'void' | 'erase' | 'expire']> = async (_context, documentId, end) =>
    (await server()).endDocument(documentId, end);
  return { sessionKey, endDocument };
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** A session key of the document (no signer). */
    sessionKey(documentId: string): Promise<string>;
    /** Voids or erases the document with an sk key, or makes it expired. */
    endDocument(documentId: string, end: 'void' | 'erase' | 'expire'): Promise<void>;
  }
}
