import type { Migration } from '../migrations.js';

/*
 * Erasure (docs/lifecycle.md): an erased document keeps its row as the tombstone (id, SHA-256, times) with when and by
 * whom (an API key's id, or `cli`) it was erased; its content rows are deleted and its personal data cleared. The
 * `document.erased` audit event is derived from these columns.
 */
export const erasure: Migration = {
  version: 13,
  name: 'erased documents',
  up: ({ bigint }) => `
    ALTER TABLE documents ADD COLUMN erased_at ${bigint};
    ALTER TABLE documents ADD COLUMN erased_by TEXT;
  `,
};
