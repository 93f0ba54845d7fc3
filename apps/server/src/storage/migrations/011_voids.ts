import type { Migration } from '../migrations.js';

/*
 * Voiding (docs/lifecycle.md): the sender withdraws a document that is not completed. Kept on the document's row, as
 * declines are (migration 6): a row with `voided_at` reads as `voided`, whatever its status column says (its CHECK
 * predates the state); `voided_by` is the id of the API key that voided it. Its `document.voided` audit event is
 * derived from these columns.
 */
export const voids: Migration = {
  version: 11,
  name: 'voided documents',
  up: ({ bigint }) => `
    ALTER TABLE documents ADD COLUMN voided_at ${bigint};
    ALTER TABLE documents ADD COLUMN void_reason TEXT;
    ALTER TABLE documents ADD COLUMN voided_by TEXT;
  `,
};
