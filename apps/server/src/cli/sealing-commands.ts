/**
 * The sealing commands of `signet`: the worker on its own, the jobs, a sealed document's file, and verification.
 */
import { writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { resolveSecret } from '../secret.js';
import { openStorage } from '../storage/index.js';
import type { SealJob, SealJobStatus } from '../storage/types.js';
import { CliError, print, readInput, withStorage } from './common.js';
import { parseWholeNumber } from './options.js';
import { findOrganizationBySlug } from '../storage/queries/organizations.js';

const JOB_STATUSES: SealJobStatus[] = ['pending', 'running', 'sealed', 'failed'];

function jobLine(job: SealJob): string {
  const when = job.status === 'pending' ? `due ${job.runAt}` : `updated ${job.updatedAt}`;
  const error = job.lastError ? `  ${job.lastError}` : '';
  return `${job.documentId}  ${job.status.padEnd(7)}  attempts ${job.attempts}  ${when}${error}`;
}

/** Adds `worker`, `jobs list|retry`, `documents signed` and `verify` to the program. */
export function registerSealingCommands(program: Command, documents: Command): void {
  program
    .command('worker')
    .description('seal completed submissions and send webhooks, apart from the API server (run `signet serve` with SEAL_WORKER=false WEBHOOK_DISPATCHER=false)')
    .action(async () => {
      // Loaded by the commands that use them, so that the others start fast (as `serve` loads the server).
      const [{ PdfPool }, { startSealWorker }, { startWebhookDispatcher }] = await Promise.all([
        import('../pdf/pool/index.js'),
        import('../sealing/start.js'),
        import('../webhooks/start.js'),
      ]);
      const config = loadConfig();
      const logger = createLogger(config.logLevel);
      const storage = await openStorage(config.databaseUrl);
      const pdfPool = new PdfPool(config.pdfPool);
      const secret = await resolveSecret(config);
      const worker = await startSealWorker({ config, storage, pdfPool, secret, logger });
      // Webhooks too: a deployment that moves background work out of `signet serve` moves both.
      const dispatcher = startWebhookDispatcher({ config, storage, secret, logger });
      process.stderr.write(`Signet seal worker ${worker.owner} running (${storage.engine})\n`);
      const stop = () =>
        void (async () => {
          await worker.stop();
          await dispatcher.stop();
          await pdfPool.close();
          await storage.close();
          logger.flush();
          process.exit(0);
        })();
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });

  const jobs = program.command('jobs').description('the seal jobs of completed documents');
  jobs
    .command('list')
    .description('list seal jobs, newest first, with the reason of the last failure')
    .addOption(new Option('--status <status>', 'only jobs in this state').choices(JOB_STATUSES))
    .option('--limit <n>', 'at most this many (default 50)', parseWholeNumber(1, 10_000))
    .option('--json', 'print JSON')
    .action((options: { status?: SealJobStatus; limit?: number; json?: boolean }) =>
      withStorage(async (storage) => {
        const list = await storage.listSealJobs({ status: options.status, limit: options.limit ?? 50 });
        if (options.json) return print(list);
        print(list.length ? list.map(jobLine).join('\n') : 'No seal jobs.');
      }),
    );
  jobs
    .command('retry')
    .description('run a failed (or waiting) seal job again now, with a fresh count of attempts')
    .argument('<documentId>', 'the document whose seal to retry')
    .action((documentId: string) =>
      withStorage(async (storage) => {
        if (await storage.retrySealJob(documentId, new Date())) return print(`Seal of ${documentId} queued again.`);
        const { job } = await storage.getSealState(documentId);
        if (!job) throw new CliError(`no seal job for ${documentId} (is it a completed document?)`);
        throw new CliError(`the seal of ${documentId} is ${job.status}: only failed or pending jobs are retried`);
      }),
    );

  documents
    .command('signed')
    .description("write a document's sealed PDF to a file")
    .argument('<documentId>', 'the document')
    .requiredOption('--out <file>', 'where to write the PDF')
    .action((documentId: string, options: { out: string }) =>
      withStorage(async (storage) => {
        const { job, sealed } = await storage.getSealState(documentId);
        if (!sealed) {
          const why = job ? `its seal is ${job.status}${job.lastError ? ` (${job.lastError})` : ''}` : 'it has not been submitted';
          throw new CliError(`${documentId} is not sealed: ${why}`);
        }
        const bytes = await storage.readSealedContent(documentId, 0, sealed.fileSize - 1);
        await writeFile(options.out, bytes);
        print(`Wrote ${options.out}: ${sealed.fileSize} bytes, SHA-256 ${sealed.sha256}, sealed ${sealed.sealedAt}.`);
      }),
    );

  program
    .command('verify')
    .description('tell whether a PDF was sealed by this Signet instance and is intact (exit 0 sealed and intact, 2 otherwise)')
    .argument('<file>', 'the PDF')
    .option('--org <slug>', "only this organization's seals")
    .option('--json', 'print JSON')
    .action((file: string, options: { org?: string; json?: boolean }) =>
      withStorage(async (storage) => {
        const pdf = await readInput('<file>', file);
        let organizationId: string | null = null;
        if (options.org) {
          const organization = await findOrganizationBySlug(storage.db.query, options.org);
          if (!organization) throw new CliError(`no organization ${options.org}`);
          organizationId = organization.id;
        }
        const [{ sharedPdfPool }, { verifySeal }] = await Promise.all([import('../pdf/pool/index.js'), import('../sealing/verify-seal.js')]);
        const pool = sharedPdfPool();
        const verdict = await verifySeal(storage, organizationId, pdf, (bytes) => pool.run('verify', bytes));
        await pool.close();
        if (options.json) print(verdict);
        else if (!verdict.sealed) print(`Not sealed by this Signet instance (SHA-256 ${verdict.sha256}).`);
        else {
          const state = verdict.intact ? 'intact' : 'ALTERED since it was sealed';
          print(`Sealed ${verdict.sealedAt}: document ${verdict.documentId}, submission ${verdict.submissionId}; ${state}.`);
        }
        if (!verdict.sealed || !verdict.intact) process.exitCode = 2;
      }),
    );
}
