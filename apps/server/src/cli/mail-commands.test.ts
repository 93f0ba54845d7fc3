import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSignet } from '../../test/support/cli.js';
import { createDocument } from '../documents/create-document.js';
import { generateSamplePdf, sampleLeaseFields } from '../pdf/sample.js';
import { openStorage } from '../storage/index.js';
import { listAuditEvents } from '../storage/queries/audit.js';
import { ensureOrganization } from '../storage/queries/organizations.js';

/* `signet documents remind` as a user runs it, on a store of their own (docs/email.md). */

let dir: string;
let databaseUrl: string;
let documentId: string;

function signet(env: Record<string, string>, ...args: string[]) {
  return runSignet(args, { env: { DATABASE_URL: databaseUrl, SIGNET_SECRET: 's'.repeat(40), ...env }, cwd: dir });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-cli-mail-'));
  databaseUrl = `file:${join(dir, 'cli.db')}`;
  const storage = await openStorage(databaseUrl);
  const org = await ensureOrganization(storage.db.query, 'acme', 'Acme');
  const document = await createDocument(storage, {
    organizationId: org.id,
    bytes: await generateSamplePdf({ pages: 2, countersigned: true }),
    fields: sampleLeaseFields(2),
    signers: [
      { id: 'tenant', name: 'Tina', email: 'tina@example.com', order: 1 },
      { id: 'landlord', name: 'Lars', email: 'lars@example.com', order: 2 },
    ],
    signingOrder: 'sequential',
    maxPdfBytes: 10_000_000,
  });
  documentId = document.id;
  await storage.close();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('signet documents remind', { timeout: 90_000 }, () => {
  it('queues a reminder once an hour, and says why it cannot otherwise', async () => {
    const mail = { SIGNET_SMTP_URL: 'smtp://127.0.0.1:2525' };
    const noMail = await signet({}, 'documents', 'remind', documentId, 'tenant');
    expect(noMail.code).toBe(1);
    expect(noMail.stderr).toMatch(/SIGNET_SMTP_URL is not set/);

    const reminded = await signet(mail, 'documents', 'remind', documentId, 'tenant', '--json');
    expect(reminded.code).toBe(0);
    expect(JSON.parse(reminded.stdout)).toMatchObject({ documentId, signerId: 'tenant', email: 'tina@example.com' });
    const again = await signet(mail, 'documents', 'remind', documentId, 'tenant');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/less than an hour ago/);
    const waiting = await signet(mail, 'documents', 'remind', documentId, 'landlord');
    expect(waiting.stderr).toMatch(/waits for their turn/);

    const storage = await openStorage(databaseUrl);
    try {
      const events = await listAuditEvents(storage.db.query, documentId);
      expect(events.filter((event) => event.type === 'signer.reminded')).toMatchObject([{ signerId: 'tenant', signerName: 'Tina' }]);
    } finally {
      await storage.close();
    }
  });
});
