/**
 * `@signet/server/testing`: what the other packages' tests need of the server, and nothing a product runs: the real
 * app over HTTP on a loopback port with a fresh embedded store (`startLiveServer`), values that complete a document's
 * fields (`completeValues`), the sample agreement PDF with its fields, and the typed queries their checks read the
 * store with (`findDocument(server.test.storage.db.query, id)`). Packages depend on `@signet/server` as a
 * devDependency, through this entry only.
 * @example const server = await startLiveServer(); const key = await server.createKey();
 */
export { startLiveServer, type Intercept, type LiveServer } from './support/live-server.js';
export { startLiveMailServer, type LiveMailServer } from './support/live-mail-server.js';
export { buildPayload, completeValues, type KeyOptions } from './support/harness.js';
export { LEASE_SIGNERS, generateSamplePdf, sampleFields, sampleLeaseFields } from '../src/pdf/sample.js';
export { generateSampleFormPdf, sampleFormFields } from '../src/pdf/sample-form.js';
export { findDocument } from '../src/storage/queries/documents.js';
export { findSubmissionForDocument, listSubmissions } from '../src/storage/queries/submissions.js';
export { claimIdempotencyKey, releaseIdempotencyKey } from '../src/storage/queries/idempotency.js';
export { ensureOrganization } from '../src/storage/queries/organizations.js';
export { findSealState } from '../src/storage/queries/seals.js';
