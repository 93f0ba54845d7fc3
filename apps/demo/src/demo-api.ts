import type { DocumentMetadata, Signer, SubmissionResult } from '@signet/api';
import type { CaughtMessage } from '../server/mail-inbox.js';
import type { ReceivedEvent } from '../server/webhook-inbox.js';

/** What the demo's backend tells its page: where the API is, and a public key. */
export interface DemoConfig {
  apiUrl: string;
  pk: string;
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  return (await response.json()) as T;
}

export const demoApi = {
  config: () => fetch('/demo-api/config').then((r) => json<DemoConfig>(r)),
  documents: () => fetch('/demo-api/documents').then((r) => json<{ documents: DocumentMetadata[] }>(r)).then((b) => b.documents),
  createDocument: (size: 'short' | 'long') =>
    fetch(`/demo-api/documents?size=${size}`, { method: 'POST' }).then((r) => json<{ documentId: string }>(r)),
  /** The webhook events the backend received about `documentId`, oldest first. */
  events: (documentId: string, signal?: AbortSignal) =>
    fetch(`/demo-api/documents/${encodeURIComponent(documentId)}/events`, { signal })
      .then((r) => json<{ events: ReceivedEvent[] }>(r))
      .then((b) => b.events),
  /** A lease for two signers in turn; with `email`, Signet invites them by e-mail to its hosted signing page. */
  createLease: (delivery?: 'email') =>
    fetch(`/demo-api/leases${delivery ? `?delivery=${delivery}` : ''}`, { method: 'POST' }).then((r) => json<{ documentId: string }>(r)),
  /** What Signet e-mailed, newest first (`enabled: false` when the API sends its mail elsewhere). */
  mail: () => fetch('/demo-api/mail').then((r) => json<{ enabled: boolean; messages: CaughtMessage[] }>(r)),
  /** A one-page application form with a field of every type. */
  createForm: () => fetch('/demo-api/forms', { method: 'POST' }).then((r) => json<{ documentId: string }>(r)),
  /** The document's signers and where they stand; none on a document without signers. */
  signers: (documentId: string) =>
    fetch(`/demo-api/documents/${encodeURIComponent(documentId)}/signers`).then((r) => json<{ signers: Signer[] }>(r)).then((b) => b.signers),
  /** A session key for one signer, minted by the backend. */
  session: (documentId: string, signerId: string) =>
    fetch(`/demo-api/documents/${encodeURIComponent(documentId)}/sessions/${encodeURIComponent(signerId)}`, { method: 'POST' })
      .then((r) => json<{ key: string }>(r))
      .then((b) => b.key),
  /** "New document": a draft of `file` (the sample agreement when `null`) for one or two signers. */
  createDraft: (file: File | null, signers: '1' | '2') => {
    const form = new FormData();
    if (file) form.set('file', file);
    form.set('signers', signers);
    return fetch('/demo-api/drafts', { method: 'POST', body: form }).then((r) => json<{ documentId: string }>(r));
  },
  /** A builder session key for the draft, minted by the backend (it may send the draft). */
  builderSession: (documentId: string) =>
    fetch(`/demo-api/drafts/${encodeURIComponent(documentId)}/builder-session`, { method: 'POST' })
      .then((r) => json<{ key: string }>(r))
      .then((b) => b.key),
  submissionUrl: (documentId: string) => `/demo-api/documents/${encodeURIComponent(documentId)}/submission`,
};

export type { CaughtMessage, DocumentMetadata, ReceivedEvent, Signer, SubmissionResult };
