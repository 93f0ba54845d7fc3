import type { Migration } from '../migrations.js';

/*
 * PAdES levels (docs/api-guide.md, "The signed document"): the level each seal reached, B-B to B-LTA, as
 * `sealing.level` shows it. Null for seals made before levels were recorded.
 */
export const sealLevel: Migration = {
  version: 16,
  name: 'seal level',
  up: () => `
    ALTER TABLE sealed_documents ADD COLUMN level TEXT CHECK (level IN ('B-B', 'B-T', 'B-LT', 'B-LTA'));
  `,
};
