/**
 * E-mail on the command line (docs/email.md): `documents remind`, which queues a reminder to one signer now. It works
 * on the store directly, as `documents void` does; the reminder is recorded as asked by `cli`. The message is sent by
 * the job runner of a running server (`signet serve`) whose `SIGNET_SMTP_URL` is set.
 */
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { ApiError } from '../errors.js';
import { remindSigner } from '../mail/remind.js';
import { resolveSecret } from '../secret.js';
import { CliError, print, withStorage } from './common.js';
import { CLI_ACTOR } from './lifecycle-commands.js';

/** `documents remind` under `documents`. */
export function registerRemindCommand(documents: Command): void {
  documents
    .command('remind')
    .description('e-mail a signer their signing link now (at most once an hour a signer; needs SIGNET_SMTP_URL)')
    .argument('<documentId>')
    .argument('<signerId>')
    .option('--json', 'print the reminder as JSON')
    .action((documentId: string, signerId: string, options: { json?: boolean }) =>
      withStorage(async (storage) => {
        if (!/^doc_[A-Za-z0-9]{20,64}$/.test(documentId)) throw new CliError(`no document ${documentId}`);
        const config = loadConfig();
        const reminder = await remindSigner(storage, { config, secret: await resolveSecret(config), documentId, signerId, sentBy: CLI_ACTOR, now: new Date() }).catch(
          (error: unknown) => {
            if (error instanceof ApiError) throw new CliError(error.message);
            throw error;
          },
        );
        if (options.json) return print(reminder);
        print(`Queued a reminder to ${reminder.email} (${signerId} of ${documentId}); a running server sends it.`);
      }),
    );
}
