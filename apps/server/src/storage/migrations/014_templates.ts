import type { Migration } from '../migrations.js';

/*
 * Templates (docs/templates.md): a PDF (in chunks, as a document's) with its fields, roles and defaults, at its
 * current version. A document made from one copies that version's file and fields and records where it came from,
 * so that editing or deleting the template later changes none of its documents. A builder session key of a template
 * holds the template's id in `api_keys.document_id` (the id its key is bound to: docs/decisions.md, "Templates").
 */
export const templates: Migration = {
  version: 14,
  name: 'templates',
  up: ({ bigint, bytes, bytewiseText, storeUncompressed }) => `
    CREATE TABLE templates (
      id ${bytewiseText} PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations (id),
      name TEXT NOT NULL,
      filename TEXT NOT NULL,
      page_count INTEGER NOT NULL,
      file_size ${bigint} NOT NULL,
      sha256 TEXT NOT NULL,
      fields TEXT NOT NULL,
      roles TEXT,
      signing_order TEXT NOT NULL CHECK (signing_order IN ('parallel', 'sequential')),
      expires_in_days INTEGER,
      version INTEGER NOT NULL,
      created_at ${bigint} NOT NULL,
      updated_at ${bigint} NOT NULL
    );
    CREATE INDEX templates_organization_created ON templates (organization_id, created_at DESC, id DESC);
    CREATE TABLE template_chunks (
      template_id TEXT NOT NULL REFERENCES templates (id) ON DELETE CASCADE,
      idx INTEGER NOT NULL,
      data ${bytes} NOT NULL,
      PRIMARY KEY (template_id, idx)
    );
    ${storeUncompressed('template_chunks', 'data')}
    CREATE TABLE template_previews (
      template_id TEXT PRIMARY KEY REFERENCES templates (id) ON DELETE CASCADE,
      media_type TEXT NOT NULL,
      width INTEGER NOT NULL,
      height INTEGER NOT NULL,
      content ${bytes} NOT NULL,
      created_at ${bigint} NOT NULL
    );
    ALTER TABLE documents ADD COLUMN template_id TEXT;
    ALTER TABLE documents ADD COLUMN template_version INTEGER;
  `,
};
