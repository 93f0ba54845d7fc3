/**
 * The sealing commands of `signet`: the worker on its own, the jobs, a sealed document's file, and verification.
 */
import { writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { Option, type Command } from 'commander';
import type { PadesReport } from '@signet/contract';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { resolveSecret } from '../secret.js';
import { openStorage } from '../storage/index.js';
import { listJobs, retryJob } from '../jobs/admin.js';
import { jobQueues } from '../jobs/queues.js';
import { JOB_STATES, type JobState, type JobSummary } from '../jobs/types.js';
import { CliError, callerPath, print, readInput, withStorage } from './common.js';
import { parseWholeNumber } from './options.js';
import { findOrganizationBySlug } from '../storage/queries/organizations.js';
import { findSealState, readSealedContent } from '../storage/queries/seals.js';

/** The states `--status` takes: the runner's, and each kind's own words for them. */
const STATUS_WORDS: Record<string, JobState> = {
  ...Object.fromEntries(JOB_STATES.map((state) => [state, state])),
  sealed: 'done',
  failed: 'dead',
  sending: 'running',
  succeeded: 'done',
};

function jobLine(job: JobSummary): string {
  const when = job.status === 'pending' ? `due ${job.runAt}` : `updated ${job.updatedAt}`;
  const error = job.lastError ? `  ${job.lastError}` : '';
  return `${job.id}  ${job.status.padEnd(7)}  attempts ${job.attempts}  ${when}${error}`;
}

/** Adds `worker`, `jobs list|retry`, `documents signed` and `verify` to the program. */
export function registerSealingCommands(program: Command, documents: Command): void {
  program
    .command('worker')
    .description('seal completed submissions and send webhooks, apart from the API server (run `signet serve` with SEAL_WORKER=false WEBHOOK_DISPATCHER=false)')
    .action(async () => {
      // Loaded by the commands that use them, so that the others start fast (as `serve` loads the server).
      const [{ createPdfPool }, { startJobs }] = await Promise.all([import('../pdf-worker/index.js'), import('../jobs/start.js')]);
      const config = loadConfig();
      const logger = createLogger(config.logLevel);
      const storage = await openStorage(config.databaseUrl);
      const pdfPool = createPdfPool(config.pdfPool);
      const secret = await resolveSecret(config);
      // Seals and webhooks both: a deployment that moves background work out of `signet serve` moves all of it.
      const jobs = await startJobs({ config, storage, pdfPool, secret, logger });
      process.stderr.write(`Signet seal worker ${jobs.owner} running (${storage.engine})\n`);
      // As `signet serve` stops (server.ts): jobs under way get SHUTDOWN_TIMEOUT_MS, then go back to the queue; a
      // second signal exits at once.
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) process.exit(128 + (constants.signals[signal] ?? 0));
        stopping = true;
        void (async () => {
          const { released } = await jobs.stop({ graceMs: config.shutdownTimeoutMs });
          if (released > 0) logger.warn({ released }, 'jobs still running at the shutdown limit were given back to the queue');
          await pdfPool.close();
          await storage.close();
          logger.flush();
          process.exit(0);
        })();
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });

  const queues = jobQueues();
  const jobs = program.command('jobs').description('the background jobs of every kind: seals, webhook deliveries, expiries, retention runs, bulk creation and e-mail');
  jobs
    .command('list')
    .description('list jobs, newest first, with their state, attempts and the reason of the last failure')
    .addOption(new Option('--kind <kind>', 'only jobs of this kind').choices(queues.map((queue) => queue.name)))
    .addOption(new Option('--status <status>', 'only jobs in this state (dead: gave up)').choices(Object.keys(STATUS_WORDS)))
    .option('--limit <n>', 'at most this many (default 50)', parseWholeNumber(1, 10_000))
    .option('--json', 'print JSON')
    .action((options: { kind?: string; status?: string; limit?: number; json?: boolean }) =>
      withStorage(async (storage) => {
        const chosen = options.kind ? queues.filter((queue) => queue.name === options.kind) : queues;
        const state = options.status ? STATUS_WORDS[options.status] : undefined;
        const list = await listJobs(storage.db, chosen, { ...(state ? { state } : {}), limit: options.limit ?? 50 });
        if (options.json) return print(list);
        print(list.length ? list.map(jobLine).join('\n') : 'No jobs.');
      }),
    );
  jobs
    .command('retry')
    .description('run a dead (or waiting) job of any kind again now, with a fresh count of attempts')
    .argument('<id>', 'the job: a document (doc_…) for its seal, a webhook delivery (dlv_…)')
    .action((id: string) =>
      withStorage(async (storage) => {
        const kind = await retryJob(storage.db, queues, id, new Date());
        if (kind === 'seal') return print(`Seal of ${id} queued again.`);
        if (kind === 'webhook') return print(`Delivery ${id} queued again (a running dispatcher sends it: signet serve or signet worker).`);
        if (kind) return print(`Job ${id} (${kind}) queued again.`);
        if (id.startsWith('doc_')) {
          const { job } = await findSealState(storage.db.query, id);
          if (!job) throw new CliError(`no seal job for ${id} (is it a completed document?)`);
          throw new CliError(`the seal of ${id} is ${job.status}: only failed or pending jobs are retried`);
        }
        throw new CliError(`no job ${id} that is dead or waiting: only those are retried`);
      }),
    );

  documents
    .command('signed')
    .description("write a document's sealed PDF to a file")
    .argument('<documentId>', 'the document')
    .requiredOption('--out <file>', 'where to write the PDF')
    .action((documentId: string, options: { out: string }) =>
      withStorage(async (storage) => {
        const { job, sealed } = await findSealState(storage.db.query, documentId);
        if (!sealed) {
          const why = job ? `its seal is ${job.status}${job.lastError ? ` (${job.lastError})` : ''}` : 'it has not been submitted';
          throw new CliError(`${documentId} is not sealed: ${why}`);
        }
        const bytes = await readSealedContent(storage.db.query, documentId, 0, sealed.fileSize - 1);
        await writeFile(callerPath(options.out), bytes);
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
        const [{ sharedPdfPool }, { verifySeal }] = await Promise.all([import('../pdf-worker/index.js'), import('../sealing/verify-seal.js')]);
        const pool = sharedPdfPool();
        const verdict = await verifySeal(storage, organizationId, pdf, (bytes) => pool.run('verify', bytes), (bytes) => pool.run('pades', bytes));
        await pool.close();
        if (options.json) print(verdict);
        else {
          if (!verdict.sealed) print(`Not sealed by this Signet instance (SHA-256 ${verdict.sha256}).`);
          else {
            const state = verdict.intact ? 'intact' : 'ALTERED since it was sealed';
            print(`Sealed ${verdict.sealedAt}: document ${verdict.documentId}, submission ${verdict.submissionId}; ${state}.`);
          }
          if (verdict.pades) print(describePades(verdict.pades));
        }
        if (!verdict.sealed || !verdict.intact) process.exitCode = 2;
      }),
    );
}

/** `signet verify`'s lines on the file's PAdES signature: level, timestamps, and each certificate's status. */
function describePades(report: PadesReport): string {
  const lines = [`PAdES level: ${report.level ?? 'none (the signature does not verify)'}`];
  if (report.signingTime) lines.push(`  claimed signing time: ${report.signingTime}`);
  if (report.signatureTimestamp) lines.push(`  signature timestamp: ${report.signatureTimestamp}`);
  if (report.documentTimestamp) lines.push(`  document timestamp: ${report.documentTimestamp}`);
  const certificate = (c: PadesReport['chain'][number]) => {
    const { status, source, producedAt, revokedAt } = c.revocation;
    const detail = status === 'none' ? 'no revocation data in the file' : `${status} (${source} of ${producedAt}${revokedAt ? `, revoked ${revokedAt}` : ''})`;
    return `    ${c.subject}: ${c.subject === c.issuer ? 'root' : detail}`;
  };
  if (report.chain.length > 0) lines.push('  signer chain:', ...report.chain.map(certificate));
  if (report.timestampChain.length > 0) lines.push('  timestamp authority chain:', ...report.timestampChain.map(certificate));
  return lines.join('\n');
}
