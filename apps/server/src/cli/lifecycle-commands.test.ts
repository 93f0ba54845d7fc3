import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSignet } from '../../test/support/cli.js';
import { openStorage } from '../storage/index.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import { findDocument } from '../storage/queries/documents.js';
import { listAuditEvents } from '../storage/queries/audit.js';
import { ensureOrganization } from '../storage/queries/organizations.js';

/* `signet documents void|erase` and `documents create --expires-at` as a user runs them, on a store of their own (docs/lifecycle.md). */

let dir: string;
let databaseUrl: string;

function signet(...args: string[]) {
  return runSignet(args, { env: { DATABASE_URL: databaseUrl, SIGNET_SECRET: 's'.repeat(40) }, cwd: dir });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-cli-lifecycle-'));
  databaseUrl = `file:${join(dir, 'cli.db')}`;
  const storage = await openStorage(databaseUrl);
  await ensureOrganization(storage.db.query, 'acme', 'Acme');
  await storage.close();
  await writeFile(join(dir, 'a.pdf'), await generateSamplePdf({ pages: 1 }));
  await writeFile(join(dir, 'fields.json'), JSON.stringify(sampleFields(1)));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Each command starts a process that loads the built server (seconds on a busy CI machine).
describe('signet documents void, erase and create --expires-at', { timeout: 90_000 }, () => {
  it('documents create --expires-at keeps the expiry; a past one is refused naming it', async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const created = await signet('documents', 'create', '--org', 'acme', '--pdf', 'a.pdf', '--fields', 'fields.json', '--expires-at', expiresAt, '--json');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ status: 'pending', expiresAt });
    const past = await signet('documents', 'create', '--org', 'acme', '--pdf', 'a.pdf', '--fields', 'fields.json', '--expires-at', '2020-01-01T00:00:00Z');
    expect(past.code).toBe(1);
    expect(past.stderr.trim()).toBe('signet: expiresAt: must be in the future');
  });

  it('erases a document, once: the tombstone, and the content gone', async () => {
    const created = await signet('documents', 'create', '--org', 'acme', '--pdf', 'a.pdf', '--fields', 'fields.json', '--json');
    const { id } = JSON.parse(created.stdout) as { id: string };
    const erased = await signet('documents', 'erase', id, '--json');
    expect(erased.code).toBe(0);
    expect(JSON.parse(erased.stdout)).toMatchObject({ id, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), erasedBy: 'cli' });
    const again = await signet('documents', 'erase', id);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toMatch(new RegExp(`^signet: Document ${id} was erased at `));
    expect((await signet('documents', 'erase', 'doc_nope')).stderr.trim()).toBe('signet: no document doc_nope');
    const storage = await openStorage(databaseUrl);
    try {
      expect(await storage.db.query.selectFrom('document_chunks').select('idx').where('document_id', '=', id).execute()).toEqual([]);
      expect((await listAuditEvents(storage.db.query, id)).map((event) => event.type)).toEqual(['document.created', 'document.erased']);
    } finally {
      await storage.close();
    }
  });

  it('voids a document with a reason, once; refuses a bad reason and an unknown document', async () => {
    const created = await signet('documents', 'create', '--org', 'acme', '--pdf', 'a.pdf', '--fields', 'fields.json', '--json');
    expect(created.code).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };

    expect((await signet('documents', 'void', id)).stderr.trim()).toBe("signet: required option '--reason <text>' not specified");
    const blank = await signet('documents', 'void', id, '--reason', '   ');
    expect(blank).toMatchObject({ code: 1 });
    expect(blank.stderr.trim()).toBe('signet: --reason must be 1 to 500 characters');
    expect((await signet('documents', 'void', 'doc_nope', '--reason', 'x')).stderr.trim()).toBe('signet: no document doc_nope');

    const voided = await signet('documents', 'void', id, '--reason', 'Sent to the wrong tenant', '--json');
    expect(voided.code).toBe(0);
    expect(JSON.parse(voided.stdout)).toMatchObject({ id, status: 'voided', voided: { reason: 'Sent to the wrong tenant' } });
    const again = await signet('documents', 'void', id, '--reason', 'Again');
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`signet: Document ${id} is voided: it can no longer be voided`);

    const storage = await openStorage(databaseUrl);
    try {
      expect((await findDocument(storage.db.query, id))!.voided).toMatchObject({ reason: 'Sent to the wrong tenant', keyId: 'cli' });
      expect((await listAuditEvents(storage.db.query, id)).map((event) => event.type)).toEqual(['document.created', 'document.voided']);
    } finally {
      await storage.close();
    }
  });
});
