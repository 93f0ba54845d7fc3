import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOfSigner, type FieldDefinition, type SdkDocument } from '@signet/contract';
import { storageEngines } from '../../test/storage/test-engines.js';
import type { DocumentRecord } from '../storage/types.js';
import { pdfText } from '../../test/sealing/render/test-poppler.js';
import { buildPayload, call, completeValues, createTestApp, type TestApp } from '../../test/support/harness.js';
import { findApiKeyByHash } from '../storage/queries/api-keys.js';
import { listAuditEvents } from '../storage/queries/audit.js';
import { findSealState } from '../storage/queries/seals.js';
import { fanOutWebhookEvents, listWebhookDeliveries } from '../storage/queries/webhook-deliveries.js';

/*
 * Several signers, each with a session key, through the real app on both engines: sequential and
 * parallel order, what each signer may see and submit, and that the document completes (and is sealed) once.
 */

const engines = await storageEngines();

/** The payload of one signer: their own fields, complete. */
const signerPayload = (document: DocumentRecord, signerId: string, values?: Parameters<typeof buildPayload>[1]) => {
  const own = { ...document, fields: fieldsOfSigner(document.fields, signerId) };
  return buildPayload(own, values ?? completeValues(own.fields));
};

const body = async (response: Response) => (await response.json()) as any;

describe.each(engines)('several signers on $name', (engine) => {
  let t: TestApp;
  let sk: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    sk = (await t.createKey({ kind: 'sk' })).secret;
  });
  afterAll(() => t.close());

  const session = async (documentId: string, signerId?: string) => {
    const created = await call(t, 'POST', `/documents/${documentId}/sessions`, { key: sk, body: signerId ? { signerId } : {} });
    expect(created.status).toBe(201);
    return (await body(created)).data as { id: string; key: string; expiresAt: string; signerId?: string };
  };
  const submit = (key: string, payload: unknown, headers: Record<string, string> = {}) =>
    call(t, 'POST', '/sdk/documents/submit', { key, body: payload, headers });
  const managed = async (documentId: string) => (await body(await call(t, 'GET', `/documents/${documentId}`, { key: sk }))).data;

  it('signs a two-signer lease in sequential order: the landlord waits, then sees the tenant sign, then completes it', async () => {
    const lease = await t.createLease();
    const before = await managed(lease.id);
    expect(before.signingOrder).toBe('sequential');
    expect(before.signers.map((s: any) => [s.id, s.status, s.openedAt, s.submissionId])).toEqual([
      ['tenant', 'ready', null, null],
      ['landlord', 'waiting', null, null],
    ]);
    const tenant = await session(lease.id, 'tenant');
    const landlord = await session(lease.id, 'landlord');

    // The landlord opens it early: told whose turn it is, and refused with not_your_turn.
    const early = (await body(await call(t, 'GET', `/sdk/documents/${lease.id}`, { key: landlord.key }))) as SdkDocument;
    expect(early.signerId).toBe('landlord');
    expect(early.signers).toEqual([
      { id: 'tenant', name: 'Tina Tenant', order: 1, status: 'ready' },
      { id: 'landlord', name: 'Lars Landlord', order: 2, status: 'waiting' },
    ]);
    const outOfTurn = await submit(landlord.key, await signerPayload(lease, 'landlord'));
    expect(outOfTurn.status).toBe(409);
    expect((await body(outOfTurn)).error).toMatchObject({
      code: 'SUBMISSION_FAILED',
      details: { reason: 'not_your_turn', waitingFor: ['tenant'] },
    });

    // The tenant opens (recorded once) and signs their fields only.
    const tenantView = (await body(await call(t, 'GET', `/sdk/documents/${lease.id}`, { key: tenant.key }))) as SdkDocument;
    expect(tenantView.signerId).toBe('tenant');
    expect(tenantView.fields.filter((f) => f.signerId === 'landlord').every((f) => f.value === undefined)).toBe(true);
    const opened = await managed(lease.id);
    expect(opened.signers[0]).toMatchObject({ status: 'opened', openedAt: expect.any(String) });
    const tenantPayload = await signerPayload(lease, 'tenant');
    const signed = await submit(tenant.key, tenantPayload);
    expect(signed.status).toBe(201);
    const tenantResult = await body(signed);
    expect((await managed(lease.id)).status).toBe('pending');
    expect((await findSealState(t.storage.db.query, lease.id)).job).toBeNull();

    // After signing, the tenant's key still reads and replays, and takes nothing new.
    expect((await call(t, 'GET', `/sdk/documents/${lease.id}`, { key: tenant.key })).status).toBe(200);
    const replay = await submit(tenant.key, tenantPayload);
    expect(replay.status).toBe(200);
    expect(await body(replay)).toEqual(tenantResult);
    const changed = await signerPayload(lease, 'tenant', { ...completeValues(fieldsOfSigner(lease.fields, 'tenant')), signer_name: { type: 'text', content: 'Someone Else' } });
    const again = await submit(tenant.key, changed);
    expect(again.status).toBe(409);
    expect((await body(again)).error.code).toBe('SUBMISSION_FAILED');

    // The landlord now sees the tenant's values on the tenant's (read-only) fields.
    const landlordView = (await body(await call(t, 'GET', `/sdk/documents/${lease.id}`, { key: landlord.key }))) as SdkDocument;
    expect(landlordView.signers!.map((s) => s.status)).toEqual(['completed', 'opened']);
    const tenantSignature = landlordView.fields.find((f) => f.id === 'signature')!;
    expect(tenantSignature).toMatchObject({ signerId: 'tenant', value: { type: 'signature', imageData: expect.stringMatching(/^data:image\/png;base64,/) } });
    expect(landlordView.fields.find((f) => f.id === 'landlord_signature')!.value).toBeUndefined();

    // Their own rules: another signer's field is refused by name, a missing field of theirs is listed alone.
    const withTenantField = await buildPayload({ ...lease, fields: lease.fields.filter((f) => f.id !== 'agreement_number') }, {
      ...completeValues(lease.fields),
    });
    const refused = await submit(landlord.key, withTenantField);
    expect(refused.status).toBe(422);
    expect((await body(refused)).error.details).toMatchObject({
      field: 'fields[0].id',
      reason: 'field "signer_name" is to be filled in by Tina Tenant (tenant), not by Lars Landlord (landlord)',
    });
    const own = fieldsOfSigner(lease.fields, 'landlord');
    const { landlord_date: _, ...withoutDate } = completeValues(own);
    const missing = await submit(landlord.key, await buildPayload({ ...lease, fields: own }, withoutDate));
    expect(missing.status).toBe(422);
    expect((await body(missing)).error.details).toEqual({ missingFields: ['landlord_date'] });

    const last = await submit(landlord.key, await signerPayload(lease, 'landlord'));
    expect(last.status).toBe(201);
    const done = await managed(lease.id);
    expect(done.status).toBe('completed');
    expect(done.signers.map((s: any) => s.status)).toEqual(['completed', 'completed']);

    const submissions = (await body(await call(t, 'GET', `/documents/${lease.id}/submissions`, { key: sk }))).data;
    expect(submissions.map((s: any) => s.signerId)).toEqual(['tenant', 'landlord']);
    expect(submissions[0].id).toBe(tenantResult.submissionId);
    const single = await call(t, 'GET', `/documents/${lease.id}/submission`, { key: sk });
    expect(single.status).toBe(404);
    expect((await body(single)).error.code).toBe('NOT_FOUND');

    const audit = (await body(await call(t, 'GET', `/documents/${lease.id}/audit`, { key: sk }))).data.events;
    expect(audit.map((e: any) => [e.type, e.signerName])).toEqual([
      ['document.created', undefined],
      ['signer.opened', 'Lars Landlord'],
      ['signer.opened', 'Tina Tenant'],
      ['signer.completed', 'Tina Tenant'],
      ['signer.completed', 'Lars Landlord'],
      ['document.submitted', undefined],
    ]);

    // Sealed once, with every signer's values and both on the audit trail.
    expect(await t.sealDue()).toBe(1);
    const sealed = await call(t, 'GET', `/documents/${lease.id}/signed.pdf`, { key: sk });
    expect(sealed.status).toBe(200);
    const text = (await pdfText(new Uint8Array(await sealed.arrayBuffer()))).replace(/\s+/g, ' ');
    expect(text).toContain('Signer: Tina Tenant');
    expect(text).toContain('Signer: Lars Landlord');
    expect(text).toContain('Signed by Tina Tenant');
    expect(text).toContain('Signed by Lars Landlord');
    expect(text).toContain('Signed by every signer');
  });

  it('lets three parallel signers submit at once: each lands, and the document completes exactly once', async () => {
    const signers = [
      { id: 'a', name: 'Ada' },
      { id: 'b', name: 'Ben' },
      { id: 'c', name: 'Cy' },
    ];
    const field = (id: string, signerId: string, y: number): FieldDefinition => ({
      id, type: 'text', page: 1, x: 0.1, y, width: 0.3, height: 0.04, required: true, editable: true, label: id, signerId,
    });
    const fields = [field('a_name', 'a', 0.1), field('b_name', 'b', 0.2), field('c_name', 'c', 0.3)];
    const document = await t.createDocument({ pages: 1, fields, signers, signingOrder: 'parallel' });
    const hook = await call(t, 'POST', '/webhooks', {
      key: sk,
      body: { url: 'https://93.184.216.34/hook', events: ['signer.completed', 'document.completed'] },
    });
    expect(hook.status).toBe(201);
    const webhookId = (await body(hook)).data.id;
    const keys = await Promise.all(signers.map((signer) => session(document.id, signer.id)));
    const payloads = await Promise.all(signers.map((signer) => signerPayload(document, signer.id)));
    const answers = await Promise.all(keys.map((key, i) => submit(key.key, payloads[i])));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect((await managed(document.id)).status).toBe('completed');
    expect((await findSealState(t.storage.db.query, document.id)).job?.status).toBe('pending');
    const events = await listAuditEvents(t.storage.db.query, document.id);
    expect(events.filter((e) => e.type === 'document.submitted')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'signer.completed')).toHaveLength(3);
    while ((await fanOutWebhookEvents(t.storage.db, { limit: 100 })) > 0);
    const deliveries = await listWebhookDeliveries(t.storage.db.query, webhookId, { limit: 100 });
    expect(deliveries.filter((d) => d.eventType === 'signer.completed')).toHaveLength(3);
    expect(deliveries.filter((d) => d.eventType === 'document.completed')).toHaveLength(1);
  });

  it('keeps a session key to its document and signer: other documents, management routes, expiry, revocation', async () => {
    const lease = await t.createLease({ signingOrder: 'parallel' });
    const other = await t.createDocument({ pages: 1 });
    const tenant = await session(lease.id, 'tenant');
    const expectRefused = async (response: Response, status: number, code: string) => {
      expect(response.status).toBe(status);
      expect((await body(response)).error.code).toBe(code);
    };

    const validation = await body(await call(t, 'POST', '/sdk/validate-key', { key: tenant.key }));
    expect(validation).toMatchObject({
      valid: true,
      scopes: ['documents:read', 'documents:submit'],
      expiresAt: tenant.expiresAt,
      documentId: lease.id,
      signerId: 'tenant',
    });
    await expectRefused(await call(t, 'GET', `/sdk/documents/${other.id}`, { key: tenant.key }), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectRefused(await call(t, 'GET', `/sdk/documents/doc_${'Z'.repeat(24)}`, { key: tenant.key }), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectRefused(await submit(tenant.key, await buildPayload(other)), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectRefused(await call(t, 'GET', `/documents/${lease.id}`, { key: tenant.key }), 403, 'INSUFFICIENT_PERMISSIONS');
    const form = new FormData();
    form.set('file', new File([new Uint8Array([37, 80, 68, 70])], 'x.pdf'));
    const verify = await t.app.request('/verify', { method: 'POST', headers: { 'X-API-Key': tenant.key }, body: form });
    await expectRefused(verify, 403, 'INSUFFICIENT_PERMISSIONS');

    // Only the hash is stored.
    const { createHash } = await import('node:crypto');
    const stored = await findApiKeyByHash(t.storage.db.query, createHash('sha256').update(tenant.key).digest('hex'));
    expect(stored).toMatchObject({ id: tenant.id, kind: 'pk', documentId: lease.id, signerId: 'tenant' });
    expect(JSON.stringify(stored)).not.toContain(tenant.key);

    const expired = await t.createSession(lease.id, 'landlord', { expiresAt: new Date(Date.now() - 1000).toISOString() });
    await expectRefused(await call(t, 'GET', `/sdk/documents/${lease.id}`, { key: expired.secret }), 401, 'EXPIRED_API_KEY');

    expect((await call(t, 'GET', `/sdk/documents/${lease.id}`, { key: tenant.key })).status).toBe(200);
    const revoked = await call(t, 'DELETE', `/documents/${lease.id}/sessions/${tenant.id}`, { key: sk });
    expect(revoked.status).toBe(200);
    expect((await body(revoked)).data).toMatchObject({ id: tenant.id, documentId: lease.id, signerId: 'tenant', revokedAt: expect.any(String) });
    await expectRefused(await call(t, 'GET', `/sdk/documents/${lease.id}`, { key: tenant.key }), 401, 'INVALID_API_KEY');
    await expectRefused(await submit(tenant.key, await signerPayload(lease, 'tenant')), 401, 'INVALID_API_KEY');
    // Another document's key id is not this document's session.
    const otherSession = await session(other.id);
    await expectRefused(await call(t, 'DELETE', `/documents/${lease.id}/sessions/${otherSession.id}`, { key: sk }), 404, 'NOT_FOUND');
  });

  it('limits a session key to its origins', async () => {
    const lease = await t.createLease({ signingOrder: 'parallel' });
    const created = await call(t, 'POST', `/documents/${lease.id}/sessions`, {
      key: sk,
      body: { signerId: 'tenant', origins: ['https://host.example'], expiresInSeconds: 600 },
    });
    const data = (await body(created)).data;
    expect(data.origins).toEqual(['https://host.example']);
    expect(Date.parse(data.expiresAt) - Date.parse(data.createdAt)).toBe(600_000);
    const from = (origin: string) => call(t, 'GET', `/sdk/documents/${lease.id}`, { key: data.key, headers: { Origin: origin } });
    expect((await from('https://host.example')).status).toBe(200);
    expect((await from('https://evil.example')).status).toBe(403);
  });

  it('gives a document without signers a session key bound to it alone', async () => {
    const document = await t.createDocument({ pages: 1 });
    const other = await t.createDocument({ pages: 1 });
    const key = await session(document.id);
    expect(key.signerId).toBeUndefined();
    const view = await body(await call(t, 'GET', `/sdk/documents/${document.id}`, { key: key.key }));
    expect(view.signers).toBeUndefined();
    expect(view.signerId).toBeUndefined();
    expect((await call(t, 'GET', `/sdk/documents/${other.id}`, { key: key.key })).status).toBe(403);
    expect((await submit(key.key, await buildPayload(document))).status).toBe(201);
    const record = (await body(await call(t, 'GET', `/documents/${document.id}/submission`, { key: sk }))).data;
    expect(record.signerId).toBeUndefined();
    expect(record.keyId).toBe(key.id);
  });

  it("lets an organization's key submit one signer's fields, and refuses a payload of several signers", async () => {
    const lease = await t.createLease({ signingOrder: 'parallel' });
    const pk = (await t.createKey()).secret;
    const mixed = await submit(pk, await buildPayload(lease));
    expect(mixed.status).toBe(422);
    expect((await body(mixed)).error.details).toMatchObject({ field: 'fields' });
    expect((await submit(pk, await signerPayload(lease, 'landlord'))).status).toBe(201);
    expect((await managed(lease.id)).signers.map((s: any) => s.status)).toEqual(['ready', 'completed']);
  });
});
