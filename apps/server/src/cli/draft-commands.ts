/**
 * The draft commands of `signet` (docs/api.md, "Drafts"): send a draft, and mint or revoke a builder session key
 * for an author's browser. They work on the store directly, as `keys` and `documents` do.
 */
import type { Command } from 'commander';
import { BUILDER_SESSION_TTL_SECONDS } from '@signet/contract';
import { documentMetadata } from '../documents/present.js';
import { sendDraft } from '../documents/drafts.js';
import { createBuilderSession, presentBuilderSession } from '../documents/builder-sessions.js';
import { revokeSessionKey } from '../storage/queries/api-keys.js';
import { findDocument } from '../storage/queries/documents.js';
import type { DocumentRecord, Storage } from '../storage/types.js';
import { CliError, print, withStorage } from './common.js';
import { parseOrigins, parseWholeNumber } from './options.js';

async function documentOf(storage: Storage, id: string): Promise<DocumentRecord> {
  const document = /^doc_[A-Za-z0-9]{20,64}$/.test(id) ? await findDocument(storage.db.query, id) : null;
  if (!document) throw new CliError(`no document ${id}`);
  return document;
}

/** `documents send` under `documents`, and `builder-sessions create|revoke`. */
export function registerDraftCommands(program: Command, documents: Command): void {
  documents
    .command('send')
    .description('check a draft and make it signable (every problem is listed when it cannot be sent yet)')
    .argument('<documentId>')
    .option('--json', 'print the document metadata as JSON')
    .action((documentId: string, options: { json?: boolean }) =>
      withStorage(async (storage) => {
        const document = await documentOf(storage, documentId);
        try {
          const sent = await sendDraft(storage, document.id, { any: true }, new Date().toISOString());
          if (options.json) return print(documentMetadata(sent));
          print(`Sent ${sent.id}: it can be signed now (version ${sent.version}).`);
        } catch (error) {
          const problems = (error as { details?: { problems?: Array<{ field: string; reason: string }> } }).details?.problems;
          if (!problems) throw error;
          throw new CliError(`cannot send ${document.id} yet: ${problems.map((problem) => `${problem.field}: ${problem.reason}`).join('; ')}`);
        }
      }),
    );

  const sessions = program.command('builder-sessions').description("mint and revoke builder session keys for a draft's author");
  sessions
    .command('create')
    .description('a pk key that may only read and edit this draft (and send it with --allow-send); printed once')
    .argument('<documentId>')
    .option('--allow-send', 'the key may send the draft too')
    .option('--origins <list>', 'comma-separated origins it may be used from (default: any)', parseOrigins)
    .option(
      '--expires-in <seconds>',
      `lifetime in seconds (default ${BUILDER_SESSION_TTL_SECONDS.default})`,
      parseWholeNumber(BUILDER_SESSION_TTL_SECONDS.min, BUILDER_SESSION_TTL_SECONDS.max),
    )
    .option('--json', 'print one JSON object')
    .action((documentId: string, options: { allowSend?: boolean; origins?: string[]; expiresIn?: number; json?: boolean }) =>
      withStorage(async (storage) => {
        const document = await documentOf(storage, documentId);
        const session = await createBuilderSession(storage, document, {
          allowSend: options.allowSend === true,
          ...(options.origins ? { origins: options.origins } : {}),
          ...(options.expiresIn === undefined ? {} : { expiresInSeconds: options.expiresIn }),
        });
        if (options.json) return print(session);
        print(
          [
            `Created builder session ${session.id} for ${document.id}${session.allowSend ? ' (may send)' : ''}`,
            `  Key:      ${session.key}`,
            `  Expires:  ${session.expiresAt}`,
            `  Origins:  ${session.origins.length > 0 ? session.origins.join(', ') : 'any'}`,
            'Store the key now: it will not be shown again.',
          ].join('\n'),
        );
      }),
    );
  sessions
    .command('revoke')
    .description('refuse a builder session key from now on')
    .argument('<documentId>')
    .argument('<keyId>')
    .action((documentId: string, keyId: string) =>
      withStorage(async (storage) => {
        const document = await documentOf(storage, documentId);
        const revoked = await revokeSessionKey(storage.db.query, document.id, keyId, new Date().toISOString(), { builder: true });
        if (!revoked) throw new CliError(`${document.id} has no builder session key ${keyId}`);
        print(`Revoked ${presentBuilderSession(revoked).id}: it and the document URLs it obtained are refused within 2 seconds.`);
      }),
    );
}
