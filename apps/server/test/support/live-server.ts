import { serve, type ServerType } from '@hono/node-server';
import type { FieldDefinition, SigningOrder } from '@signet/contract';
import { createTestApp, type KeyOptions, type TestApp } from './harness.js';

/** What sits in front of the real app: call `next` to reach it, or answer (or fail) without it. */
export type Intercept = (request: Request, next: (request: Request) => Promise<Response>) => Promise<Response>;

/** The real app over real HTTP on a free loopback port, with a fresh SQLite store. */
export interface LiveServer {
  url: string;
  test: TestApp;
  /** Replaces what runs in front of the app (`undefined`: nothing). */
  intercept(handler: Intercept | undefined): void;
  createKey(options?: KeyOptions): Promise<string>;
  /** A new document of the sample agreement (`pages` long, 3 by default) or with the given fields. */
  createDocument(options?: { pages?: number; fields?: FieldDefinition[] }): Promise<{ id: string; pageCount: number }>;
  /** A two-signer lease (the tenant, then the landlord; `sequential` unless told) of `sampleLeaseFields`. */
  createLease(options?: { pages?: number; signingOrder?: SigningOrder }): Promise<{ id: string; pageCount: number }>;
  /** A session key of a document, for one of its signers (none on a document without signers). */
  createSession(documentId: string, signerId?: string): Promise<string>;
  /**
   * Ends a document as docs/lifecycle.md describes: voided or erased through the API with an sk key, or expired by
   * setting its `expiresAt` in the past in the store.
   */
  endDocument(documentId: string, end: 'void' | 'erase' | 'expire'): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the real Signet app on 127.0.0.1 and a free port, for clients that must talk HTTP to it (the API client,
 * the viewer in a browser).
 * @example const server = await startLiveServer(); const key = await server.createKey();
 */
export async function startLiveServer(env: Record<string, string> = {}): Promise<LiveServer> {
  const test = await createTestApp(undefined, { TRUST_PROXY: 'false', ...env });
  let handler: Intercept | undefined;
  const direct = (request: Request) => Promise.resolve(test.app.fetch(request));
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve(
      { fetch: (request) => (handler ? handler(request, direct) : test.app.fetch(request)), port: 0, hostname: '127.0.0.1' },
      () => resolve(s),
    );
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    test,
    intercept(next) {
      handler = next;
    },
    async createKey(options) {
      return (await test.createKey(options)).secret;
    },
    async createDocument(options) {
      const document = await test.createDocument(options);
      return { id: document.id, pageCount: document.pageCount };
    },
    async createLease(options) {
      const document = await test.createLease(options);
      return { id: document.id, pageCount: document.pageCount };
    },
    async createSession(documentId, signerId) {
      return (await test.createSession(documentId, signerId)).secret;
    },
    async endDocument(documentId, end) {
      if (end === 'expire') {
        await test.storage.db.query.updateTable('documents').set({ expires_at: Date.now() - 1 }).where('id', '=', documentId).execute();
        return;
      }
      const { secret } = await test.createKey({ kind: 'sk' });
      const response =
        end === 'void'
          ? await test.app.request(`/documents/${documentId}/void`, {
              method: 'POST',
              headers: { 'X-API-Key': secret, 'Content-Type': 'application/json' },
              body: JSON.stringify({ reason: 'Sent to the wrong tenant' }),
            })
          : await test.app.request(`/documents/${documentId}`, { method: 'DELETE', headers: { 'X-API-Key': secret } });
      if (response.status !== 200) throw new Error(`Ending ${documentId} (${end}): ${response.status} ${await response.text()}`);
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await test.close();
    },
  };
}
