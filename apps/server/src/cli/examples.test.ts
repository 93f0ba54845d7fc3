import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSignet } from '../../test/support/cli.js';
import { createTestApp, type TestApp } from '../../test/support/harness.js';
import { generateTaggedLeasePdf } from '../pdf/sample-tagged.js';

/*
 * The repository's examples/ folder, as the README uses it: each PDF with its fields (and the lease with its signers)
 * makes a document, through the command line run from that folder and through the upload as curl sends files; the
 * lease with its roles makes a template, and the template request a document from it.
 */

const EXAMPLES = fileURLToPath(new URL('../../../../examples/', import.meta.url));
let dir: string;
let databaseUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-examples-'));
  databaseUrl = `file:${join(dir, 'examples.db')}`;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('examples/', { timeout: 90_000 }, () => {
  it('makes documents with the command line, run from examples/ as pnpm signet', async () => {
    const env = { DATABASE_URL: databaseUrl, npm_lifecycle_event: 'signet', INIT_CWD: EXAMPLES };
    expect((await runSignet(['seed', '--json'], { env })).code).toBe(0);
    const contract = await runSignet(['documents', 'create', '--org', 'demo', '--pdf', 'contract.pdf', '--fields', 'fields.json', '--json'], { env });
    expect(contract.stderr).toBe('');
    expect(JSON.parse(contract.stdout)).toMatchObject({ filename: 'contract.pdf', pageCount: 2, status: 'pending' });
    const lease = await runSignet(
      ['documents', 'create', '--org', 'demo', '--pdf', 'lease.pdf', '--fields', 'lease-fields.json', '--signers', 'signers.json', '--signing-order', 'sequential', '--json'],
      { env },
    );
    expect(lease.stderr).toBe('');
    expect(JSON.parse(lease.stdout).signers.map((signer: { id: string }) => signer.id)).toEqual(['tenant', 'landlord']);
    const template = await runSignet(
      ['templates', 'create', '--org', 'demo', '--pdf', 'lease.pdf', '--fields', 'lease-fields.json', '--roles', 'roles.json', '--signing-order', 'sequential', '--json'],
      { env },
    );
    expect(template.stderr).toBe('');
    const { id } = JSON.parse(template.stdout) as { id: string };
    const used = await runSignet(['templates', 'use', id, '--request', 'template-request.json', '--json'], { env });
    expect(used.stderr).toBe('');
    expect(JSON.parse(used.stdout)).toMatchObject({ filename: 'lease.pdf', status: 'pending' });
  });

  it('holds the tagged lease as its generator makes it, and its tags make nine fields for the two signers', async () => {
    const tagged = new Uint8Array(await readFile(join(EXAMPLES, 'tagged-lease.pdf')));
    expect(tagged).toEqual(await generateTaggedLeasePdf());
    const t = await createTestApp();
    try {
      const form = new FormData();
      form.set('file', new File([tagged as Uint8Array<ArrayBuffer>], 'tagged-lease.pdf'));
      form.set('tags', 'true');
      form.set('signers', new File([await readFile(join(EXAMPLES, 'signers.json'))], 'signers.json'));
      const sk = (await t.createKey({ kind: 'sk' })).secret;
      const response = await t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
      expect(response.status, await response.clone().text()).toBe(201);
      const { data } = (await response.json()) as { data: { fields: Array<{ id: string; type: string; signerId: string }> } };
      expect(data.fields.map(({ id, type, signerId }) => `${id}:${type}:${signerId}`)).toEqual([
        'tenant_name:text:tenant',
        'tenant_email:email:tenant',
        'move_in:date:tenant',
        'rent:number:landlord',
        'payment:select:tenant',
        'house_rules:checkbox:tenant',
        'tenant_signature:signature:tenant',
        'tenant_date:date:tenant',
        'landlord_signature:signature:landlord',
      ]);
    } finally {
      await t.close();
    }
  });

  describe('through the upload, files as curl -F name=@file sends them', () => {
    let t: TestApp;
    let sk: string;
    beforeAll(async () => {
      t = await createTestApp();
      sk = (await t.createKey({ kind: 'sk' })).secret;
    });
    afterAll(() => t.close());

    const file = async (name: string) => new File([await readFile(join(EXAMPLES, name))], name);
    it.each([
      ['contract.pdf', 'fields.json', undefined],
      ['lease.pdf', 'lease-fields.json', 'signers.json'],
    ])('%s with %s', async (pdf, fields, signers) => {
      const form = new FormData();
      form.set('file', await file(pdf));
      form.set('fields', await file(fields));
      if (signers) form.set('signers', await file(signers));
      const response = await t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
      expect(response.status, await response.clone().text()).toBe(201);
      const { data } = (await response.json()) as { data: { filename: string; fields: unknown[] } };
      expect(data.filename).toBe(pdf);
      expect(data.fields).toEqual(JSON.parse(await readFile(join(EXAMPLES, fields), 'utf8')));
    });
  });
});
