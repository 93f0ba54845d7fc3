import type { Migration } from '../migrations.js';

/*
 * Drafts and builder session keys (docs/decisions.md, "Drafts and builder sessions"). A draft is a `documents` row
 * with `draft = 1`: its status column stays `pending` (its CHECK predates drafts, and SQLite cannot change a CHECK
 * without rebuilding the table every other one refers to), and the row reads as `draft`. `sent_at` is when a draft
 * was sent; its `document.sent` audit event is derived from it, as declines' are (the CHECK of `audit_events.type`
 * predates it too). A builder session key is a session key (`document_id`) with `builder` set: `edit` reads and
 * edits the draft, `send` may also send it.
 */
export const drafts: Migration = {
  version: 10,
  name: 'drafts and builder sessions',
  up: ({ bigint }) => `
    ALTER TABLE documents ADD COLUMN draft INTEGER NOT NULL DEFAULT 0 CHECK (draft IN (0, 1));
    ALTER TABLE documents ADD COLUMN sent_at ${bigint};
    ALTER TABLE api_keys ADD COLUMN builder TEXT CHECK (builder IN ('edit', 'send'));
  `,
};
