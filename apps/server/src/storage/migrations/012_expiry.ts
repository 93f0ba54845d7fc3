import type { Migration } from '../migrations.js';

/*
 * Expiry (docs/lifecycle.md): a document created with `expiresAt` reads as `expired` once that time has passed
 * unsigned (computed on read, so it is exact without waiting for a job). `expired_at` is when the `expire` job
 * recorded it and enqueued `document.expired`, so that the event goes out once.
 */
export const expiry: Migration = {
  version: 12,
  name: 'document expiry',
  up: ({ bigint }) => `
    ALTER TABLE documents ADD COLUMN expires_at ${bigint};
    ALTER TABLE documents ADD COLUMN expired_at ${bigint};
  `,
};
