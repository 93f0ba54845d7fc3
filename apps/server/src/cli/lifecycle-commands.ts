/**
 * The end of a document's life on the command line (docs/lifecycle.md): `documents void` and `documents erase`. It works on the store
 * directly, as `documents send` does; the void is recorded as made by `cli` rather than an API key.
 */
import type { Command } from 'commander';
import { VoidRequestSchema } from '@signet/contract';
import { documentMetadata } from '../documents/present.js';
import { voidDocument } from '../documents/void.js';
import { eraseDocument } from '../documents/erase.js';
import { findDocument } from '../storage/queries/documents.js';
import { CliError, print, withStorage } from './common.js';

/** What `voided_by` records of a void made with `signet documents void`. */
export const CLI_ACTOR = 'cli';

/** `documents void` under `documents`. */
export function registerLifecycleCommands(documents: Command): void {
  documents
    .command('void')
    .description('withdraw a document not completed (a draft too): its session keys and document URLs stop at once')
    .argument('<documentId>')
    .requiredOption('--reason <text>', 'why, 1 to 500 characters (kept on the document, sent with document.voided)')
    .option('--json', 'print the document metadata as JSON')
    .action((documentId: string, options: { reason: string; json?: boolean }) =>
      withStorage(async (storage) => {
        const parsed = VoidRequestSchema.safeParse({ reason: options.reason });
        if (!parsed.success) throw new CliError('--reason must be 1 to 500 characters');
        const document = /^doc_[A-Za-z0-9]{20,64}$/.test(documentId) ? await findDocument(storage.db.query, documentId) : null;
        if (!document) throw new CliError(`no document ${documentId}`);
        const { document: voided, revokedKeys } = await voidDocument(storage, document.id, {
          reason: parsed.data.reason,
          at: new Date().toISOString(),
          keyId: CLI_ACTOR,
        });
        if (options.json) return print({ ...documentMetadata(voided), voided: { reason: voided.voided!.reason, voidedAt: voided.voided!.at } });
        const keys = revokedKeys.length === 1 ? '1 session key' : `${revokedKeys.length} session keys`;
        print(`Voided ${voided.id}: ${keys} revoked; it can no longer be opened or signed.`);
      }),
    );
}

/** `documents erase` under `documents`. */
export function registerEraseCommand(documents: Command): void {
  documents
    .command('erase')
    .description("erase a document's content (PDF, preview, submitted values, sealed copy); its tombstone and audit trail stay")
    .argument('<documentId>')
    .option('--json', 'print the tombstone as JSON')
    .action((documentId: string, options: { json?: boolean }) =>
      withStorage(async (storage) => {
        const document = /^doc_[A-Za-z0-9]{20,64}$/.test(documentId) ? await findDocument(storage.db.query, documentId) : null;
        if (!document) throw new CliError(`no document ${documentId}`);
        const { tombstone } = await eraseDocument(storage, document.id, { at: new Date().toISOString(), by: CLI_ACTOR });
        if (options.json) return print(tombstone);
        print(`Erased ${tombstone.id}: its content is deleted; its tombstone (SHA-256 ${tombstone.sha256}) and audit trail stay.`);
      }),
    );
}
