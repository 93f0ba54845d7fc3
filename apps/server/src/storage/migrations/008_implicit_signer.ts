import type { Migration } from '../migrations.js';

/*
 * One document model: every document has at least one signer. A document created without `signers` has one
 * implicit signer, id '' (no signer id a host chooses can be empty), which the API never shows; its submission already
 * had `signer_id` ''. This gives the older documents what new ones get at creation: their `signers` (the implicit
 * signer, `parallel`) and its `document_signers` row, completed with its submission when there is one. Its opening
 * stays the document's (`document.opened`), so `opened_at` is left empty.
 */
export const implicitSigner: Migration = {
  version: 8,
  name: 'the implicit signer of documents created without signers',
  up: () => `
    INSERT INTO document_signers (document_id, signer_id, completed_at, submission_id)
      SELECT d.id, '', s.received_at, s.id
      FROM documents d LEFT JOIN submissions s ON s.document_id = d.id AND s.signer_id = ''
      WHERE d.signers IS NULL;
    UPDATE documents SET signers = '[{"id":"","name":"Signer"}]', signing_order = 'parallel' WHERE signers IS NULL;
  `,
};
