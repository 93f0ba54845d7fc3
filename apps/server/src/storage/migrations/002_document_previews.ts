import type { Migration } from '../migrations.js';

/** One image of page 1 per document; a row with no bytes and media type `none` marks a PDF that cannot be drawn. */
export const documentPreviews: Migration = {
  version: 2,
  name: 'document previews',
  up: ({ bigint, bytes, storeUncompressed }) => `
    CREATE TABLE document_previews (
      document_id TEXT PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
      media_type TEXT NOT NULL,
      width INTEGER NOT NULL,
      height INTEGER NOT NULL,
      content ${bytes} NOT NULL,
      created_at ${bigint} NOT NULL
    );
    ${storeUncompressed('document_previews', 'content')}
  `,
};
