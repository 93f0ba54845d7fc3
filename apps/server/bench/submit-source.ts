import type autocannon from 'autocannon';
import type { BenchFixtures, SubmitBodies } from './fixtures.js';
import type { SubmitLedger } from './verify.js';

/** What one real submit request needs: the next fresh document, its body, and a ledger of what happened. */
export function submitSource(fixtures: BenchFixtures, bodies: SubmitBodies, ledger: SubmitLedger) {
  let next = 0;
  let exhausted = false;
  return {
    get exhausted() {
      return exhausted;
    },
    take(): string {
      const id = fixtures.submitDocumentIds[next++];
      if (id !== undefined) return id;
      exhausted = true;
      // Out of fresh documents: resend the first (a replay), and report the run as failed.
      return fixtures.submitDocumentIds[0]!;
    },
    setupRequest(request: autocannon.Request, context: Record<string, unknown>): autocannon.Request {
      const documentId = this.take();
      const { body, checksum } = bodies.build(documentId);
      if (!ledger.sent.has(documentId)) ledger.sent.set(documentId, checksum);
      context.documentId = documentId;
      request.body = body;
      return request;
    },
    onResponse(status: number, context: Record<string, unknown>) {
      const documentId = context.documentId as string;
      ledger.answered.add(documentId);
      if (status === 201) ledger.accepted.add(documentId);
    },
  };
}

export async function expectStatus(response: Response, status: number, what: string): Promise<string> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status}: ${text.slice(0, 500)}`);
  return text;
}
