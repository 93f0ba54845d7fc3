import type { Migration } from '../migrations.js';

/*
 * Delivery by e-mail (docs/email.md): whether Signet e-mails a document's signers their signing links (`delivery`),
 * its reminder schedule (`reminders`, JSON) and the origin its links use when `PUBLIC_BASE_URL` is not set
 * (`link_base_url`: the creating request's). `signer_messages` records each invitation and reminder queued to a
 * signer — no address, no link — for the audit trail and the reminders' count and spacing.
 */
export const emailDelivery: Migration = {
  version: 17,
  name: 'email delivery',
  up: ({ bigint, bytewiseText }) => `
    ALTER TABLE documents ADD COLUMN delivery TEXT CHECK (delivery IN ('email'));
    ALTER TABLE documents ADD COLUMN reminders TEXT;
    ALTER TABLE documents ADD COLUMN link_base_url TEXT;
    CREATE TABLE signer_messages (
      id ${bytewiseText} PRIMARY KEY,
      document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
      signer_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('invitation', 'reminder')),
      sent_at ${bigint} NOT NULL,
      sent_by TEXT NOT NULL
    );
    CREATE INDEX signer_messages_signer ON signer_messages (document_id, signer_id, sent_at);
  `,
};
