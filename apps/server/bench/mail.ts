import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateSamplePdf, LEASE_SIGNERS, sampleLeaseFields } from '../src/pdf/sample.js';
import { openStorage } from '../src/storage/index.js';
import { startMailCatcher } from '../test/mail/mail-catcher.js';
import { until } from '../test/sealing/test-seal-jobs.js';
import { expectJson, ROLES } from './bulk.js';
import { startBenchServer } from './child.js';
import { createFixtures } from './fixtures.js';

/*
 * The `mail` phase of `pnpm bench:server` (docs/email.md): the real server on the embedded store, sending through an
 * SMTP catcher in this process (test/mail/mail-catcher.ts).
 * - Bulk: one bulk job of BENCH_MAIL_ROWS rows (1,000; 50 in smoke mode) from a 3-page two-role template with
 *   `delivery: "email"`, each row's tenant at an address of their own. It prints the invitations queued a second
 *   (messages in the outbox, the `mail` jobs, counted in the store from the bulk request to the last one) and
 *   delivered a second (in the catcher, to the last one).
 * - One at a time: BENCH_MAIL_SINGLE documents (30; 3 in smoke mode) created with `POST /documents` and
 *   `delivery=email`, each waited for: p50 and p95 from the request to its invitation in the catcher.
 * Printed, never asserted.
 */

export interface MailSettings {
  rows: number;
  single: number;
  keep: boolean;
}

export interface MailOutcome {
  rows: number;
  queuedSeconds: number;
  deliveredSeconds: number;
  singleMs: number[];
}

/**
 * Runs the phase.
 * @example printMail(await measureMail({ rows: 1000, single: 30, keep: false }, appDir))
 */
export async function measureMail(settings: MailSettings, appDir: string): Promise<MailOutcome> {
  const catcher = await startMailCatcher();
  const fixtures = await createFixtures(1);
  const server = await startBenchServer(appDir, fixtures.databaseUrl, join(fixtures.dir, 'server.log'), {
    SIGNET_SECRET: randomBytes(32).toString('hex'),
    SIGNET_SMTP_URL: catcher.smtpUrl,
    SIGNET_MAIL_FROM: 'Signet <bench@signet.test>',
  });
  const store = await openStorage(fixtures.databaseUrl);
  try {
    const sk = { 'X-API-Key': fixtures.uploadKey };
    const pdf = (await generateSamplePdf({ pages: 3 })) as Uint8Array<ArrayBuffer>;

    // One at a time, first (an idle server): request → invitation in the catcher.
    const singleMs: number[] = [];
    for (let index = 0; index < settings.single; index++) {
      const address = `single-${index}@tenant.test`;
      const form = new FormData();
      form.set('file', new File([pdf], 'lease.pdf', { type: 'application/pdf' }));
      form.set('fields', JSON.stringify(sampleLeaseFields(3)));
      form.set('signers', JSON.stringify([{ ...LEASE_SIGNERS[0], email: address }, LEASE_SIGNERS[1]]));
      form.set('delivery', 'email');
      const started = performance.now();
      await expectJson(await fetch(`${server.url}/documents`, { method: 'POST', headers: sk, body: form }), 201, 'document');
      const mail = await catcher.waitFor(address, { timeoutMs: 60_000 });
      singleMs.push(mail.receivedAt - started);
    }

    const form = new FormData();
    form.set('file', new File([pdf], 'lease.pdf', { type: 'application/pdf' }));
    form.set('fields', JSON.stringify(sampleLeaseFields(3)));
    form.set('roles', JSON.stringify(ROLES));
    const template = (await expectJson(await fetch(`${server.url}/templates`, { method: 'POST', headers: sk, body: form }), 201, 'template')).data;
    const rows = Array.from({ length: settings.rows }, (_, index) => ({
      key: `mail-${index}`,
      signers: [
        { role: 'tenant', name: `Tenant ${index}`, email: `bulk-${index}@tenant.test` },
        { role: 'landlord', name: 'Lars Landlord', email: 'lars@landlord.test' },
      ],
      delivery: 'email',
    }));
    const invitations = async () =>
      Number(
        (
          await store.db.query
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('kind', '=', 'mail')
            .where('payload', 'like', '%bulk-%@tenant.test%')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const delivered = () => catcher.messages.filter((message) => message.to.some((to) => to.startsWith('bulk-'))).length;
    const started = performance.now();
    await expectJson(
      await fetch(`${server.url}/templates/${template.id}/bulk`, { method: 'POST', headers: { ...sk, 'Content-Type': 'application/json' }, body: JSON.stringify({ rows }) }),
      202,
      'bulk request',
    );
    // Asked often: the time of the last one is the figure.
    const often = { timeoutMs: 300_000, everyMs: 20 };
    await until(async () => ((await invitations()) >= settings.rows ? true : undefined), `${settings.rows} invitations queued`, often);
    const queuedSeconds = (performance.now() - started) / 1000;
    await until(async () => (delivered() >= settings.rows ? true : undefined), `${settings.rows} invitations delivered`, often);
    const last = Math.max(...catcher.messages.filter((message) => message.to.some((to) => to.startsWith('bulk-'))).map((message) => message.receivedAt));
    return { rows: settings.rows, queuedSeconds, deliveredSeconds: (last - started) / 1000, singleMs };
  } finally {
    await store.close();
    await server.stop();
    await catcher.close();
    if (!settings.keep) rmSync(fixtures.dir, { recursive: true, force: true });
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function printMail(outcome: MailOutcome): void {
  const lines = [
    'mail through an SMTP catcher on loopback (embedded store)',
    `   bulk of ${outcome.rows.toLocaleString('en-US')} rows with delivery "email": invitations queued ${(outcome.rows / outcome.queuedSeconds).toFixed(0)}/s ` +
      `(last in the outbox after ${outcome.queuedSeconds.toFixed(1)} s), delivered ${(outcome.rows / outcome.deliveredSeconds).toFixed(0)}/s ` +
      `(last in the catcher after ${outcome.deliveredSeconds.toFixed(1)} s)`,
    `   one document at a time (${outcome.singleMs.length}): creation → invitation in the catcher p50 ${percentile(outcome.singleMs, 50).toFixed(0)} ms, ` +
      `p95 ${percentile(outcome.singleMs, 95).toFixed(0)} ms`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
