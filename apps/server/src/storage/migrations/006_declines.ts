import type { Migration } from '../migrations.js';

/*
 * Declining: a signer may decline a pending document, with a reason. Kept on the document's row beside
 * its status (whose CHECK predates the `declined` state, and which SQLite cannot change without rebuilding the
 * table every other one refers to): a row with `declined_at` is `declined`. Its audit event is derived from these
 * columns, like the signers' events.
 */
export const declines: Migration = {
  version: 6,
  name: 'declined documents',
  up: ({ bigint }) => `
    ALTER TABLE documents ADD COLUMN declined_at ${bigint};
    ALTER TABLE documents ADD COLUMN decline_reason TEXT;
    ALTER TABLE documents ADD COLUMN declined_by TEXT;
    ALTER TABLE documents ADD COLUMN declined_ip TEXT;
    ALTER TABLE documents ADD COLUMN declined_user_agent TEXT;
  `,
};
