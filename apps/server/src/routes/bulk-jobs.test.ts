import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkJobSchema, BulkRowResultSchema, TemplateSchema, paginatedList, successEnvelope } from '@signet/contract';
import { expectError } from '../../test/support/envelope.js';
import { call, capturingLogger, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { until } from '../../test/sealing/test-seal-jobs.js';
import { generateSamplePdf, sampleLeaseFields } from '../pdf/sample.js';
import { JobRunner } from '../jobs/runner.js';
import { listJobs } from '../jobs/admin.js';
import { jobQueues } from '../jobs/queues.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { bulkJobKind } from '../templates/bulk/bulk-kind.js';

/*
 * Bulk creation from a template (docs/templates.md, "Bulk"), through the real app and the real job runner on both
 * engines: the request checked whole, one document per row made by the `bulk` job, per-row failures recorded,
 * row keys that never make a second document, session keys given once to the key that started the job, and
 * `bulk.completed` enqueued with the job's end.
 */

const ROLES = [
  { id: 'tenant', name: 'Tenant', order: 1 },
  { id: 'landlord', name: 'Landlord', order: 2 },
];
const SIGNERS = [
  { role: 'tenant', name: 'Tina Tenant', email: 'tina@example.com' },
  { role: 'landlord', name: 'Lars Landlord' },
];
const HOOK_URL = 'https://93.184.216.34/signet';

const jobEnvelope = successEnvelope(BulkJobSchema);
const rowPage = paginatedList(BulkRowResultSchema);

describe.each(engines)('bulk creation on $name', (engine) => {
  let t: TestApp;
  let sk: string;
  let templateId: string;
  let runner: JobRunner;
  beforeAll(async () => {
    t = await createTestApp(engine);
    sk = (await t.createKey({ kind: 'sk' })).secret;
    const form = new FormData();
    form.set('file', new File([(await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>], 'lease.pdf', { type: 'application/pdf' }));
    form.set('fields', JSON.stringify(sampleLeaseFields(1)));
    form.set('roles', JSON.stringify(ROLES));
    const response = await t.app.request('/templates', { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
    expect(response.status).toBe(201);
    templateId = successEnvelope(TemplateSchema).parse(await response.json()).data.id;
    runner = new JobRunner({ db: t.storage.db, logger: capturingLogger().logger }).register(bulkJobKind({ secret: t.secret }));
  });
  afterAll(() => t.close());

  const start = (body: unknown, options: { key?: string; headers?: Record<string, string>; template?: string } = {}) =>
    call(t, 'POST', `/templates/${options.template ?? templateId}/bulk`, { key: options.key ?? sk, body, ...(options.headers ? { headers: options.headers } : {}) });
  async function started(body: unknown, options: { headers?: Record<string, string> } = {}) {
    const response = await start(body, options);
    expect(response.status, await response.clone().text()).toBe(202);
    return jobEnvelope.parse(await response.json()).data;
  }
  const job = async (id: string) => jobEnvelope.parse(await (await call(t, 'GET', `/bulk-jobs/${id}`, { key: sk })).json()).data;
  async function rows(id: string, key = sk, query = '') {
    const response = await call(t, 'GET', `/bulk-jobs/${id}/rows${query}`, { key });
    expect(response.status, await response.clone().text()).toBe(200);
    return rowPage.parse(await response.json());
  }
  const documentsOfTemplate = async () =>
    Number((await t.storage.db.query.selectFrom('documents').select((eb) => eb.fn.countAll().as('n')).where('template_id', '=', templateId).executeTakeFirstOrThrow()).n);
  const row = (key: string, extra: Record<string, unknown> = {}) => ({ key, signers: SIGNERS, ...extra });

  it('makes one document per row, records what a field refuses, gives the session keys once, and ends with bulk.completed', async () => {
    const hook = await call(t, 'POST', '/webhooks', { key: (await t.createKey({ kind: 'sk', scopes: ['webhooks:write'] })).secret, body: { url: HOOK_URL, events: ['bulk.completed'] } });
    expect(hook.status).toBe(201);
    const created = await started({
      rows: [
        row('r-1', { values: { agreement_number: { type: 'text', content: 'AGR-1' } } }),
        row('r-2', { values: { signed_date: { type: 'date', content: '2026-02-31' } } }),
        row('r-3', { draft: true }),
      ],
      sessions: { expiresInSeconds: 600, origins: ['https://host.example'] },
    });
    expect(created).toMatchObject({ templateId, templateVersion: 1, status: 'pending', total: 3, created: 0, failed: 0 });
    expect(created.id).toMatch(/^blk_/);
    expect((await rows(created.id, (await t.createKey({ kind: 'sk' })).secret)).data.map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);
    // `signet jobs list` sees it.
    const listed = await listJobs(t.storage.db, jobQueues().filter((queue) => queue.name === 'bulk'), { limit: 10 });
    expect(listed.map((entry) => [entry.kind, entry.state, entry.key])).toContainEqual(['bulk', 'pending', created.id]);

    expect(await runner.runOnce('bulk')).toBe(true);
    const done = await job(created.id);
    expect(done).toMatchObject({ status: 'completed', total: 3, created: 2, failed: 1 });
    expect(Date.parse(done.completedAt!)).toBeGreaterThan(0);

    // Another key of the organization reads the results, never the session keys.
    const other = await rows(created.id, (await t.createKey({ kind: 'sk' })).secret);
    expect(other.data.every((r) => r.sessions === undefined)).toBe(true);

    const first = await rows(created.id);
    const [made, refused, draft] = first.data;
    expect(made).toMatchObject({ index: 0, key: 'r-1', status: 'created' });
    expect(refused).toMatchObject({ index: 1, key: 'r-2', status: 'failed', error: { field: 'values.signed_date.content' } });
    expect(refused!.documentId).toBeUndefined();
    expect(draft).toMatchObject({ index: 2, key: 'r-3', status: 'created' });
    expect(draft!.sessions).toBeUndefined();
    expect(made!.sessions!.map((session) => session.signerId)).toEqual(['tenant', 'landlord']);

    // The tenant's session key opens its document, from the origin given.
    const tenant = made!.sessions![0]!.key;
    const opened = await call(t, 'GET', `/sdk/documents/${made!.documentId}`, { key: tenant, headers: { Origin: 'https://host.example' } });
    expect(opened.status).toBe(200);
    const document = (await (await call(t, 'GET', `/documents/${made!.documentId}`, { key: sk })).json()) as { data: Record<string, any> };
    expect(document.data).toMatchObject({ status: 'pending', template: { id: templateId, version: 1 } });
    expect(document.data['fields'].find((field: { id: string }) => field.id === 'agreement_number').value).toEqual({ type: 'text', content: 'AGR-1' });
    const drafted = (await (await call(t, 'GET', `/documents/${draft!.documentId}`, { key: sk })).json()) as { data: { status: string } };
    expect(drafted.data.status).toBe('draft');

    // Read once: the second read has the results without the keys.
    const second = await rows(created.id);
    expect(second.data.map((r) => r.sessions)).toEqual([undefined, undefined, undefined]);
    expect(second.data.map((r) => r.documentId)).toEqual(first.data.map((r) => r.documentId));

    const events = await t.storage.db.query.selectFrom('webhook_events').select('body').where('type', '=', 'bulk.completed').execute();
    const mine = events.map((event) => JSON.parse(event.body)).filter((payload) => payload.data?.bulkJobId === created.id);
    expect(mine.map((payload) => payload.data)).toEqual([{ bulkJobId: created.id, templateId, total: 3, created: 2, failed: 1 }]);
    expect(await runner.runOnce('bulk')).toBe(false);
  });

  it('never makes a row key twice for a template: a later job reports the document the key made', async () => {
    const first = await started({ rows: [row('again-1'), row('again-2')] });
    await runner.runOnce('bulk');
    const made = (await rows(first.id)).data.map((r) => r.documentId);
    const before = await documentsOfTemplate();
    const second = await started({ rows: [row('again-2'), row('again-3'), row('again-1')] });
    await runner.runOnce('bulk');
    expect(await job(second.id)).toMatchObject({ status: 'completed', created: 3, failed: 0 });
    const results = (await rows(second.id)).data;
    expect(results.map((r) => r.documentId)).toEqual([made[1], expect.stringMatching(/^doc_/), made[0]]);
    expect(results[0]!.sessions).toBeUndefined();
    expect(results[1]!.sessions).toHaveLength(2);
    expect(await documentsOfTemplate()).toBe(before + 1);
  });

  it('a job given back mid-way is finished by another runner, and no row is made twice', { timeout: 120_000 }, async () => {
    const total = 120;
    const created = await started({ rows: Array.from({ length: total }, (_, index) => row(`resume-${index}`)) });
    const before = await documentsOfTemplate();
    // A runner answering requests makes batches of ten with a pause after each: it is stopped between two.
    const { logger, logs } = capturingLogger();
    const first = new JobRunner({ db: t.storage.db, logger }).register(bulkJobKind({ secret: t.secret, busy: () => true }));
    first.start();
    first.wake('bulk');
    await until(async () => ((await job(created.id)).created > 0 ? true : undefined), 'started');
    expect((await first.stop({ graceMs: 0 })).released).toBe(1);
    expect(await runner.runOnce('bulk')).toBe(true);
    // The first runner's attempt ends without recording anything: its lease was given back.
    await until(async () => (logs.some((line) => line['msg'] === 'job ended after its lease was taken over; its end is not recorded') ? true : undefined), 'the first attempt ended');
    expect(await job(created.id)).toMatchObject({ status: 'completed', total, created: total, failed: 0 });
    const ids = new Set<string>();
    for (let cursor: string | null = null, more = true; more; ) {
      const page = await rows(created.id, sk, `?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      for (const r of page.data) ids.add(r.documentId!);
      [cursor, more] = [page.pagination.cursor, page.pagination.hasMore];
    }
    expect(ids.size).toBe(total);
    expect(await documentsOfTemplate()).toBe(before + total);
  });

  it('takes a CSV: roles by column, values by field type, and a formula-like cell stored as text', async () => {
    const csv = [
      'key,tenant.name,tenant.email,landlord.name,landlord.email,values.agreement_number,values.signer_company,values.accept_terms',
      'csv-1,Tina Tenant,tina@example.com,Lars Landlord,,"=HYPERLINK(""http://x"",""y"")",+1 555,true',
      'csv-2,"Doe, Jane",,Lars Landlord,lars@example.com,@SUM(A1),-2,false',
      '',
    ].join('\r\n');
    const created = await started(csv, { headers: { 'Content-Type': 'text/csv' } });
    expect(created.total).toBe(2);
    await runner.runOnce('bulk');
    const results = (await rows(created.id)).data;
    expect(results.map((r) => r.status)).toEqual(['created', 'created']);
    const fieldsOf = async (id: string) =>
      Object.fromEntries(((await (await call(t, 'GET', `/documents/${id}`, { key: sk })).json()) as { data: { fields: Array<{ id: string; value?: unknown }> } }).data.fields.map((f) => [f.id, f.value]));
    const [one, two] = [await fieldsOf(results[0]!.documentId!), await fieldsOf(results[1]!.documentId!)];
    expect(one['agreement_number']).toEqual({ type: 'text', content: '=HYPERLINK("http://x","y")' });
    expect(one['signer_company']).toEqual({ type: 'text', content: '+1 555' });
    expect(one['accept_terms']).toEqual({ type: 'checkbox', checked: true });
    expect(two['agreement_number']).toEqual({ type: 'text', content: '@SUM(A1)' });
    expect(two['accept_terms']).toEqual({ type: 'checkbox', checked: false });
    const signers = ((await (await call(t, 'GET', `/documents/${results[1]!.documentId}`, { key: sk })).json()) as { data: { signers: Array<{ name: string }> } }).data.signers;
    expect(signers.map((s) => s.name)).toEqual(['Doe, Jane', 'Lars Landlord']);
  });

  it("takes each role's language from a CSV column, and refuses one Signet does not speak by its line", async () => {
    const created = await started(['key,tenant.name,tenant.locale,landlord.name,landlord.locale', 'lang-1,Tina,fr,Lars,', ''].join('\n'), { headers: { 'Content-Type': 'text/csv' } });
    await runner.runOnce('bulk');
    const [result] = (await rows(created.id)).data;
    const signers = ((await (await call(t, 'GET', `/documents/${result!.documentId}`, { key: sk })).json()) as { data: { signers: Array<{ id: string; locale?: string }> } }).data.signers;
    expect(signers.map((s) => [s.id, s.locale])).toEqual([['tenant', 'fr'], ['landlord', undefined]]);
    const refused = await expectError(await start(['key,tenant.name,tenant.locale,landlord.name', 'a,T,fr,L', 'b,T,klingon,L'].join('\n'), { headers: { 'Content-Type': 'text/csv' } }), 400, 'VALIDATION_ERROR');
    expect(refused.details).toMatchObject({ field: 'line 3', reason: expect.stringMatching(/tenant\.locale.*en, de, fr.*"klingon"/) });
    const json = await expectError(await start({ rows: [{ key: 'a', signers: [{ ...SIGNERS[0], locale: 'fr-FR' }, SIGNERS[1]] }] }), 400, 'VALIDATION_ERROR');
    expect(json.details?.['field']).toBe('rows[0].signers[0].locale');
  });

  it('refuses a bad request whole, naming the row or the CSV line', async () => {
    const csv = (lines: string[]) => start(lines.join('\n'), { headers: { 'Content-Type': 'text/csv' } });
    const refusals: Array<[Response, number, string, string | RegExp]> = [
      [await start({ rows: Array.from({ length: 10_001 }, (_, index) => row(`big-${index}`)) }), 400, 'VALIDATION_ERROR', 'rows'],
      [await start({ rows: [] }), 400, 'VALIDATION_ERROR', 'rows'],
      [await start({ rows: [row('dup'), row('x'), row('dup')] }), 400, 'VALIDATION_ERROR', 'rows[2].key'],
      [await start({ rows: [row('')] }), 400, 'VALIDATION_ERROR', 'rows[0].key'],
      [await start({ rows: [row('k'.repeat(256))] }), 400, 'VALIDATION_ERROR', 'rows[0].key'],
      [await start({ rows: [row('a'), { key: 'b', signers: [SIGNERS[0]] }] }), 400, 'VALIDATION_ERROR', 'rows[1].signers'],
      [await start({ rows: [{ key: 'a', signers: [...SIGNERS, { role: 'agent', name: 'A' }] }] }), 400, 'VALIDATION_ERROR', 'rows[0].signers[2].role'],
      [await start({ rows: [row('a', { values: { nope: { type: 'text', content: 'x' } } })] }), 400, 'VALIDATION_ERROR', 'rows[0].values.nope'],
      [await start({ rows: [row('a', { values: { accept_terms: { type: 'text', content: 'x' } } })] }), 400, 'VALIDATION_ERROR', 'rows[0].values.accept_terms.type'],
      [await start({ rows: [row('a', { expiresAt: 'tomorrow' })] }), 400, 'VALIDATION_ERROR', 'rows[0].expiresAt'],
      // This server sends no mail: a code it would e-mail could never reach its signer.
      [await start({ rows: [row('a'), { key: 'b', signers: [{ ...SIGNERS[0], auth: 'email_code' }, SIGNERS[1]] }] }), 400, 'VALIDATION_ERROR', 'rows[1].signers[0].auth'],
      [await start({ rows: [row('a')], extra: 1 }), 400, 'VALIDATION_ERROR', 'extra'],
      [await start({ rows: [row('a')], sessions: { expiresInSeconds: 1 } }), 400, 'VALIDATION_ERROR', 'sessions.expiresInSeconds'],
      [await csv(['key,tenant.name,landlord.name,tenant.phone', 'a,T,L,1']), 400, 'VALIDATION_ERROR', 'line 1'],
      [await csv(['tenant.name,landlord.name', 'T,L']), 400, 'VALIDATION_ERROR', 'line 1'],
      [await csv(['key,tenant.name', 'a,T']), 400, 'VALIDATION_ERROR', 'line 1'],
      [await csv(['key,tenant.name,tenant.name,landlord.name', 'a,T,T,L']), 400, 'VALIDATION_ERROR', 'line 1'],
      [await csv(['key,tenant.name,landlord.name', 'a,T,L', 'b,T']), 400, 'VALIDATION_ERROR', 'line 3'],
      [await csv(['key,tenant.name,landlord.name,values.accept_terms', 'a,T,L,true', 'b,T,L,yes']), 400, 'VALIDATION_ERROR', 'line 3'],
      [await csv(['key,tenant.name,landlord.name,values.signature', 'a,T,L,x']), 400, 'VALIDATION_ERROR', 'line 2'],
      [await csv(['key,tenant.name,landlord.name', 'a,T,L', 'a,T,L']), 400, 'VALIDATION_ERROR', 'line 3'],
      [await csv(['key,tenant.name,landlord.name', 'a,,L']), 400, 'VALIDATION_ERROR', 'line 2'],
      [await csv(['key,tenant.name,landlord.name', 'a,"T,L']), 400, 'VALIDATION_ERROR', /^line \d$/],
      [await csv(['key,tenant.name,landlord.name']), 400, 'VALIDATION_ERROR', 'body'],
      [await csv(['key,tenant.name,landlord.name', 'a,T\u0000,L']), 400, 'VALIDATION_ERROR', 'body'],
      [await start('key,tenant.name', { headers: { 'Content-Type': 'text/plain' } }), 415, 'VALIDATION_ERROR', 'Content-Type'],
      [await start('{"rows":[]}', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }), 415, 'VALIDATION_ERROR', 'Content-Type'],
      [await start('{', {}), 400, 'VALIDATION_ERROR', 'body'],
    ];
    for (const [response, status, code, field] of refusals) {
      const error = await expectError(response, status, code);
      expect(error.details?.['field']).toMatch(typeof field === 'string' ? new RegExp(`^${field.replace(/[.[\]]/g, '\\$&')}$`) : field);
    }
    const lines = (await expectError(await csv(['key,tenant.name,landlord.name,values.accept_terms', 'a,T,L,maybe']), 400, 'VALIDATION_ERROR')).details;
    expect(lines?.['reason']).toMatch(/values\.accept_terms.*true or false/);
    // Nothing was stored for any of them.
    expect(await t.storage.db.query.selectFrom('bulk_jobs').select('id').where('total', '=', 0).execute()).toEqual([]);
  });

  it('answers only an sk key with the scopes, of the organization, for well-formed ids', async () => {
    const body = { rows: [row('auth-1')] };
    const made = await started(body);
    const pk = (await t.createKey()).secret;
    const readOnly = (await t.createKey({ kind: 'sk', scopes: ['documents:read'] })).secret;
    const writeOnly = (await t.createKey({ kind: 'sk', scopes: ['documents:write'] })).secret;
    const org = await ensureOrganization(t.storage.db.query, `other-${Date.now()}`, 'Other');
    const stranger = (await t.createKey({ kind: 'sk' }, org.id)).secret;
    await expectError(await start(body, { key: pk }), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await start(body, { key: readOnly }), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await call(t, 'POST', `/templates/${templateId}/bulk`, { body }), 401, 'INVALID_API_KEY');
    await expectError(await start(body, { key: stranger }), 404, 'NOT_FOUND');
    await expectError(await start(body, { template: 'tpl_nope' }), 400, 'VALIDATION_ERROR');
    await expectError(await start(body, { template: `tpl_${'Z'.repeat(24)}` }), 404, 'NOT_FOUND');
    for (const path of [`/bulk-jobs/${made.id}`, `/bulk-jobs/${made.id}/rows`]) {
      await expectError(await call(t, 'GET', path, { key: pk }), 403, 'INSUFFICIENT_PERMISSIONS');
      await expectError(await call(t, 'GET', path, { key: writeOnly }), 403, 'INSUFFICIENT_PERMISSIONS');
      await expectError(await call(t, 'GET', path, { key: stranger }), 404, 'NOT_FOUND');
      await expectError(await call(t, 'GET', path.replace(made.id, 'blk_x'), { key: sk }), 400, 'VALIDATION_ERROR');
      await expectError(await call(t, 'GET', path.replace(made.id, `blk_${'Q'.repeat(24)}`), { key: sk }), 404, 'NOT_FOUND');
    }
    await expectError(await call(t, 'GET', `/bulk-jobs/${made.id}/rows?cursor=abc`, { key: sk }), 400, 'VALIDATION_ERROR');
    await expectError(await call(t, 'GET', `/bulk-jobs/${made.id}/rows?limit=1000`, { key: sk }), 400, 'VALIDATION_ERROR');
    await runner.runOnce('bulk');
    // The stranger's organization cannot read the documents either.
    const documentId = (await rows(made.id)).data[0]!.documentId!;
    await expectError(await call(t, 'GET', `/documents/${documentId}`, { key: stranger }), 404, 'DOCUMENT_NOT_FOUND');
  });

  it('refuses a body over the size limit with a 413', async () => {
    const small = await createTestApp(engine, { MAX_BODY_BYTES: '2048' });
    try {
      const key = (await small.createKey({ kind: 'sk' })).secret;
      const rows = Array.from({ length: 40 }, (_, index) => row(`pad-${index}`));
      await expectError(await call(small, 'POST', `/templates/${templateId}/bulk`, { key, body: { rows } }), 413, 'VALIDATION_ERROR');
      const csv = `key,tenant.name,landlord.name\n${'x,T,L\n'.repeat(500)}`;
      await expectError(await call(small, 'POST', `/templates/${templateId}/bulk`, { key, body: csv, headers: { 'Content-Type': 'text/csv' } }), 413, 'VALIDATION_ERROR');
    } finally {
      await small.close();
    }
  });
});
