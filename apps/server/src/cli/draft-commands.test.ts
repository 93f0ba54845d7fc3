import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSignet } from '../../test/support/cli.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../storage/index.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import { hashApiKey } from '../keys.js';
import { findApiKeyByHash } from '../storage/queries/api-keys.js';
import { listAuditEvents } from '../storage/queries/audit.js';
import { ensureOrganization } from '../storage/queries/organizations.js';

/* `signet documents create --draft`, `documents send` and `builder-sessions …` as a user runs them, on a store of their own. */

let dir: string;
let databaseUrl: string;

function signet(...args: string[]) {
  return runSignet(args, { env: { DATABASE_URL: databaseUrl, SIGNET_SECRET: 's'.repeat(40) }, cwd: dir });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-cli-drafts-'));
  databaseUrl = `file:${join(dir, 'cli.db')}`;
  const storage = await openStorage(databaseUrl);
  await ensureOrganization(storage.db.query, 'acme', 'Acme');
  await storage.close();
  await writeFile(join(dir, 'a.pdf'), await generateSamplePdf({ pages: 1 }));
  await writeFile(join(dir, 'fields.json'), JSON.stringify(sampleFields(1)));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Each command starts a process that loads the built server (seconds on a busy CI machine).
describe('signet drafts', { timeout: 90_000 }, () => {
  it('creates a draft without fields, refuses to send it naming why, mints and revokes a builder session, sends it', async () => {
    const created = await signet('documents', 'create', '--org', 'acme', '--pdf', 'a.pdf', '--draft', '--json');
    expect(created.code).toBe(0);
    const draft = JSON.parse(created.stdout) as { id: string; status: string };
    expect(draft.status).toBe('draft');
    expect((await signet('documents', 'create', '--org', 'acme', '--pdf', 'a.pdf')).stderr.trim()).toBe(
      "signet: required option '--fields <file>' not specified",
    );

    const refused = await signet('documents', 'send', draft.id);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(new RegExp(`^signet: cannot send ${draft.id} yet: fields: the document has no fields`));

    const minted = await signet('builder-sessions', 'create', draft.id, '--allow-send', '--origins', 'https://app.acme.com', '--expires-in', '600', '--json');
    expect(minted.code).toBe(0);
    const session = JSON.parse(minted.stdout) as { id: string; key: string; allowSend: boolean; origins: string[] };
    expect(session).toMatchObject({ documentId: draft.id, allowSend: true, origins: ['https://app.acme.com'] });
    const storage = await openStorage(databaseUrl);
    try {
      expect(await findApiKeyByHash(storage.db.query, hashApiKey(session.key))).toMatchObject({ id: session.id, documentId: draft.id, builder: 'send' });
    } finally {
      await storage.close();
    }
    const revoked = await signet('builder-sessions', 'revoke', draft.id, session.id);
    expect(revoked.stdout).toMatch(new RegExp(`^Revoked ${session.id}`));
    expect((await signet('builder-sessions', 'revoke', draft.id, 'key_nope')).stderr.trim()).toBe(`signet: ${draft.id} has no builder session key key_nope`);

    const ready = await signet('documents', 'create', '--org', 'acme', '--pdf', 'a.pdf', '--fields', 'fields.json', '--draft');
    expect(ready.stdout).toMatch(/A draft: send it with signet documents send doc_/);
    const readyId = /Created (doc_\w+)/.exec(ready.stdout)![1]!;
    const sent = await signet('documents', 'send', readyId, '--json');
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ id: readyId, status: 'pending', version: 2 });
    expect((await signet('documents', 'send', readyId)).stderr.trim()).toMatch(/^signet: Document doc_\w+ is not a draft/);
    expect((await signet('builder-sessions', 'create', readyId)).stderr.trim()).toMatch(/is not a draft/);
    expect((await signet('documents', 'send', 'doc_nope')).stderr.trim()).toBe('signet: no document doc_nope');
    const after = await openStorage(databaseUrl);
    try {
      expect((await listAuditEvents(after.db.query, readyId)).map((event) => event.type)).toEqual(['document.created', 'document.sent']);
    } finally {
      await after.close();
    }
  });
});
