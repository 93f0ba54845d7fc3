import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOfSigner, WebhookEventSchema, type SignerDefinition } from '@signet/contract';
import { expectError } from '../../test/support/envelope.js';
import { storageEngines } from '../../test/storage/test-engines.js';
import { buildPayload, call, completeValues, createTestApp, type TestApp } from '../../test/support/harness.js';
import { LEASE_SIGNERS, sampleLeaseFields } from '../pdf/sample.js';
import { openMailPayload } from '../mail/outbox.js';
import type { MailPayload } from '../mail/message.js';

/*
 * Signers who prove who they are (docs/signer-auth.md): the gate on a session key's reads and writes, the access
 * code and the e-mailed code, their limits, who may call, hostile bodies, and what the management view and the
 * audit trail show. On both engines.
 */

const engines = await storageEngines();
const ACCESS_CODE = 'harbour-42';

describe.each(engines)('signer verification on $name', (engine) => {
  let t: TestApp;
  let pk: string;
  let sk: string;
  beforeAll(async () => {
    // A mail server is configured (nothing runs the mail jobs here: the test reads the queued message).
    t = await createTestApp(engine, { SIGNET_SMTP_URL: 'smtp://127.0.0.1:2525' });
    pk = (await t.createKey()).secret;
    sk = (await t.createKey({ kind: 'sk' })).secret;
  });
  afterAll(() => t.close());

  const lease = (tenant: Partial<SignerDefinition>) =>
    t.createDocument({
      pages: 2,
      fields: sampleLeaseFields(2),
      signers: [{ ...LEASE_SIGNERS[0]!, email: 'tina.tenant@example.com', ...tenant }, LEASE_SIGNERS[1]!],
      signingOrder: 'parallel',
    });
  const send = (key: string, id: string) => call(t, 'POST', `/sdk/documents/${id}/verification`, { key });
  const check = (key: string, id: string, body: unknown, ip?: string) =>
    call(t, 'POST', `/sdk/documents/${id}/verification/check`, { key, body, ...(ip ? { ip } : {}) });
  /** The last code e-mailed for `documentId`, read from its queued message. */
  /** The last message queued for `documentId`, opened. */
  async function lastMessage(documentId: string) {
    const rows = await t.storage.db.query.selectFrom('jobs').select(['payload', 'created_at']).where('kind', '=', 'mail').execute();
    const mine = rows.map((row) => JSON.parse(String(row.payload)) as MailPayload).filter((payload) => payload.documentId === documentId);
    return openMailPayload(t.secret, mine.at(-1)!);
  }
  const lastCode = async (documentId: string) => /\b(\d{6})\b/.exec((await lastMessage(documentId)).text)![1]!;

  it('access_code: the content stays closed until the code is right, for this session key only', async () => {
    const hook = await call(t, 'POST', '/webhooks', { key: sk, body: { url: 'https://93.184.216.34/verified', events: ['signer.verified'] } });
    expect(hook.status).toBe(201);
    const document = await lease({ auth: 'access_code', accessCode: ACCESS_CODE });
    const tenant = (await t.createSession(document.id, 'tenant')).secret;

    const refused = await expectError(await call(t, 'GET', `/sdk/documents/${document.id}`, { key: tenant }), 403, 'VERIFICATION_REQUIRED');
    expect(refused.details).toEqual({ method: 'access_code', documentId: document.id, documentName: 'agreement.pdf', signerId: 'tenant', signerName: 'Tina Tenant' });
    const own = { ...document, fields: fieldsOfSigner(document.fields, 'tenant') };
    const payload = await buildPayload(own, completeValues(own.fields));
    await expectError(await call(t, 'POST', '/sdk/documents/submit', { key: tenant, body: payload }), 403, 'VERIFICATION_REQUIRED');
    await expectError(await call(t, 'POST', `/sdk/documents/${document.id}/decline`, { key: tenant, body: { reason: 'no' } }), 403, 'VERIFICATION_REQUIRED');

    const wrong = await expectError(await check(tenant, document.id, { code: 'harbour-41' }), 422, 'VERIFICATION_FAILED');
    expect(wrong.details).toEqual({ reason: 'wrong_code', attemptsLeft: 4 });
    const right = await check(tenant, document.id, { code: ACCESS_CODE });
    expect(right.status).toBe(200);
    expect(await right.json()).toEqual({ verified: true, method: 'access_code', verifiedAt: expect.any(String) });

    expect((await call(t, 'GET', `/sdk/documents/${document.id}`, { key: tenant })).status).toBe(200);
    expect((await call(t, 'POST', '/sdk/documents/submit', { key: tenant, body: payload })).status).toBe(201);
    // Another session key of the same signer proves it again; a signer without auth is never asked.
    const second = (await t.createSession(document.id, 'tenant')).secret;
    await expectError(await call(t, 'GET', `/sdk/documents/${document.id}`, { key: second }), 403, 'VERIFICATION_REQUIRED');
    const landlord = (await t.createSession(document.id, 'landlord')).secret;
    expect((await call(t, 'GET', `/sdk/documents/${document.id}`, { key: landlord })).status).toBe(200);
    // The sender's own keys are not signers' sessions: they pass.
    expect((await call(t, 'GET', `/sdk/documents/${document.id}`, { key: pk })).status).toBe(200);

    const managed = await (await call(t, 'GET', `/documents/${document.id}`, { key: sk })).text();
    expect(managed).not.toContain(ACCESS_CODE);
    expect(managed).not.toContain('scrypt');
    const signers = (JSON.parse(managed) as any).data.signers;
    expect(signers[0]).toMatchObject({ id: 'tenant', auth: 'access_code', verifiedAt: expect.any(String) });
    expect(signers[1]).toMatchObject({ id: 'landlord', auth: 'none', verifiedAt: null });
    const stored = await t.storage.db.query.selectFrom('documents').select('signers').where('id', '=', document.id).executeTakeFirstOrThrow();
    expect(stored.signers).not.toContain(ACCESS_CODE);
    expect(stored.signers).toMatch(/"accessCodeHash":"scrypt\$16384\$8\$1\$/);

    const events = ((await (await call(t, 'GET', `/documents/${document.id}/audit`, { key: sk })).json()) as any).data.events;
    const verification = events.filter((event: { type: string }) => event.type.startsWith('signer.verif'));
    expect(verification).toEqual([
      expect.objectContaining({ type: 'signer.verification_failed', signerId: 'tenant', signerName: 'Tina Tenant', method: 'access_code', ip: '203.0.113.7' }),
      expect.objectContaining({ type: 'signer.verified', signerId: 'tenant', method: 'access_code' }),
    ]);
    // The opening counts from the verified request on, not from the refused one.
    expect(events.map((event: { type: string }) => event.type)).toContain('signer.opened');

    // The host hears of the verification (not of the wrong try) by the `signer.verified` webhook event.
    const sent = await t.storage.db.query.selectFrom('webhook_events').select(['type', 'body']).where('document_id', '=', document.id).execute();
    expect(sent.map((event) => WebhookEventSchema.parse(JSON.parse(event.body)))).toEqual([
      {
        type: 'signer.verified',
        timestamp: expect.any(String),
        data: { documentId: document.id, signerId: 'tenant', signerName: 'Tina Tenant', method: 'access_code', verifiedAt: expect.any(String) },
      },
    ]);
    expect((await call(t, 'DELETE', `/webhooks/${((await hook.json()) as any).data.id}`, { key: sk })).status).toBe(200);
  });

  it('access_code: five wrong tries lock it for 15 minutes, even for the right code and a new session key', async () => {
    const document = await lease({ auth: 'access_code', accessCode: ACCESS_CODE });
    const tenant = (await t.createSession(document.id, 'tenant')).secret;
    for (let left = 4; left >= 1; left--) {
      expect((await expectError(await check(tenant, document.id, { code: 'guess-' + left }), 422, 'VERIFICATION_FAILED')).details).toEqual({
        reason: 'wrong_code',
        attemptsLeft: left,
      });
    }
    const locked = await check(tenant, document.id, { code: 'guess-0' });
    expect((await expectError(locked, 429, 'RATE_LIMIT_EXCEEDED')).details).toMatchObject({ reason: 'locked' });
    expect(Number(locked.headers.get('Retry-After'))).toBeGreaterThan(890);
    const fresh = (await t.createSession(document.id, 'tenant')).secret;
    await expectError(await check(fresh, document.id, { code: ACCESS_CODE }), 429, 'RATE_LIMIT_EXCEEDED');
    // Once the lock has run out, the right code opens it.
    await t.storage.db.query.updateTable('document_signers').set({ access_code_locked_until: Date.now() - 1 }).where('document_id', '=', document.id).execute();
    expect((await check(fresh, document.id, { code: ACCESS_CODE })).status).toBe(200);
  });

  it('email_code: sends a 6-digit code to the signer, resends at most once a minute, and the code opens the document', async () => {
    const document = await lease({ auth: 'email_code' });
    const tenant = (await t.createSession(document.id, 'tenant')).secret;
    const refused = await expectError(await call(t, 'GET', `/sdk/documents/${document.id}`, { key: tenant }), 403, 'VERIFICATION_REQUIRED');
    expect(refused.details).toMatchObject({ method: 'email_code', maskedEmail: 't***@example.com' });
    await expectError(await check(tenant, document.id, { code: '123456' }), 422, 'VERIFICATION_FAILED');

    const sent = await send(tenant, document.id);
    expect(sent.status).toBe(202);
    expect(await sent.json()).toEqual({ method: 'email_code', maskedEmail: 't***@example.com', expiresAt: expect.any(String), resendAfter: expect.any(String) });
    const code = await lastCode(document.id);
    expect(code).toMatch(/^\d{6}$/);
    const again = await send(tenant, document.id);
    expect((await expectError(again, 429, 'RATE_LIMIT_EXCEEDED')).details).toMatchObject({ reason: 'resend_limit' });
    expect(Number(again.headers.get('Retry-After'))).toBeGreaterThan(50);

    const wrongCode = code === '000000' ? '000001' : '000000';
    expect((await expectError(await check(tenant, document.id, { code: wrongCode }), 422, 'VERIFICATION_FAILED')).details).toEqual({
      reason: 'wrong_code',
      attemptsLeft: 4,
    });
    expect((await check(tenant, document.id, { code })).status).toBe(200);
    expect((await call(t, 'GET', `/sdk/documents/${document.id}`, { key: tenant })).status).toBe(200);
    // A code works once.
    const other = (await t.createSession(document.id, 'tenant')).secret;
    expect((await expectError(await check(other, document.id, { code }), 422, 'VERIFICATION_FAILED')).details).toMatchObject({ reason: 'no_code' });

    const events = ((await (await call(t, 'GET', `/documents/${document.id}/audit`, { key: sk })).json()) as any).data.events;
    expect(events.find((event: { type: string }) => event.type === 'signer.verified')).toMatchObject({
      method: 'email_code',
      address: 'tina.tenant@example.com',
    });
  });

  it("email_code: the code's message is in the signer's language, the code first", async () => {
    const document = await lease({ auth: 'email_code', locale: 'es' });
    const tenant = (await t.createSession(document.id, 'tenant')).secret;
    expect((await send(tenant, document.id)).status).toBe(202);
    const message = await lastMessage(document.id);
    const code = /\b(\d{6})\b/.exec(message.text)![1]!;
    expect(message.subject).toBe(`${code} es su código para abrir «agreement.pdf»`);
    expect(message.text).toContain('Hola, Tina Tenant:');
    expect(message.text).toContain('Es válido durante 10 minutos.');
    expect(message.html).toContain('<html lang="es" dir="ltr">');
    expect(message.html).toContain(`>${code}</p>`);
    expect(message.html).toContain('«agreement.pdf»');
  });

  it('email_code: five wrong tries end the code; a new one must be sent', async () => {
    const document = await lease({ auth: 'email_code' });
    const tenant = (await t.createSession(document.id, 'tenant')).secret;
    expect((await send(tenant, document.id)).status).toBe(202);
    const code = await lastCode(document.id);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 4; i++) await expectError(await check(tenant, document.id, { code: wrong }), 422, 'VERIFICATION_FAILED');
    expect((await expectError(await check(tenant, document.id, { code: wrong }), 422, 'VERIFICATION_FAILED')).details).toEqual({
      reason: 'too_many_attempts',
      attemptsLeft: 0,
    });
    expect((await expectError(await check(tenant, document.id, { code }), 422, 'VERIFICATION_FAILED')).details).toMatchObject({ reason: 'too_many_attempts' });
  });

  it('refuses email_code on a server that sends no e-mail, and an auth without what it needs', async () => {
    const plain = await createTestApp(engine);
    try {
      const key = (await plain.createKey({ kind: 'sk' })).secret;
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(await (await import('../pdf/sample.js')).generateSamplePdf({ pages: 1 }))]), 'a.pdf');
      form.set('fields', JSON.stringify(sampleLeaseFields(1)));
      form.set('signers', JSON.stringify([{ ...LEASE_SIGNERS[0], email: 'tina@example.com', auth: 'email_code' }, LEASE_SIGNERS[1]]));
      const created = await plain.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': key }, body: form });
      expect((await expectError(created, 400, 'VALIDATION_ERROR')).details).toMatchObject({ field: 'signers[0].auth' });
    } finally {
      await plain.close();
    }
    await expect(lease({ auth: 'email_code', email: undefined })).rejects.toMatchObject({ details: { field: 'signers[0].email' } });
    await expect(lease({ auth: 'access_code' })).rejects.toMatchObject({ details: { field: 'signers[0].accessCode' } });
    await expect(lease({ accessCode: ACCESS_CODE })).rejects.toMatchObject({ details: { field: 'signers[0].accessCode' } });
    await expect(lease({ auth: 'access_code', accessCode: 'abc' })).rejects.toMatchObject({ details: { field: 'signers[0].accessCode' } });
  });

  it('only the signer\'s own session key may verify', async () => {
    const document = await lease({ auth: 'access_code', accessCode: ACCESS_CODE });
    const otherDocument = await lease({ auth: 'access_code', accessCode: ACCESS_CODE });
    const foreign = (await t.createSession(otherDocument.id, 'tenant')).secret;
    const landlord = (await t.createSession(document.id, 'landlord')).secret;
    for (const path of ['verification', 'verification/check']) {
      const body = path.endsWith('check') ? { code: ACCESS_CODE } : undefined;
      const url = `/sdk/documents/${document.id}/${path}`;
      await expectError(await call(t, 'POST', url, { key: pk, body }), 403, 'INSUFFICIENT_PERMISSIONS');
      await expectError(await call(t, 'POST', url, { key: sk, body }), 403, 'INSUFFICIENT_PERMISSIONS');
      await expectError(await call(t, 'POST', url, { key: foreign, body }), 403, 'INSUFFICIENT_PERMISSIONS');
      await expectError(await call(t, 'POST', url, { body }), 401, 'INVALID_API_KEY');
      expect((await expectError(await call(t, 'POST', url, { key: landlord, body }), 422, 'VERIFICATION_FAILED')).details).toMatchObject({
        reason: 'not_required',
      });
    }
    // The access-code signer cannot ask for an e-mailed code.
    const tenant = (await t.createSession(document.id, 'tenant')).secret;
    expect((await expectError(await send(tenant, document.id), 422, 'VERIFICATION_FAILED')).details).toMatchObject({ reason: 'not_email_code' });
  });

  it.each([
    ['malformed JSON', '{"code":', 400],
    ['an array', ['123456'], 400],
    ['no code', {}, 400],
    ['a code too short', { code: '12' }, 400],
    ['a code too long', { code: '1'.repeat(65) }, 400],
    ['a code with spaces inside', { code: '12 34 56' }, 400],
    ['a code that is not a string', { code: 123456 }, 400],
    ['an unknown member', { code: '123456', trust: true }, 400],
    ['a huge body', { code: 'x'.repeat(4096) }, 413],
  ])('%s: refused before any try is counted', async (_, body, status) => {
    const document = await lease({ auth: 'access_code', accessCode: ACCESS_CODE });
    const tenant = (await t.createSession(document.id, 'tenant')).secret;
    await expectError(await check(tenant, document.id, body), status, 'VALIDATION_ERROR');
    const stored = await t.storage.db.query.selectFrom('document_signers').select('access_code_failures').where('document_id', '=', document.id).where('signer_id', '=', 'tenant').executeTakeFirstOrThrow();
    expect(stored.access_code_failures).toBe(0);
  });

  it('415 for a body that is not JSON; 429 past ten checks a minute from one key', async () => {
    const document = await lease({ auth: 'email_code' });
    const tenant = (await t.createSession(document.id, 'tenant')).secret;
    const url = `/sdk/documents/${document.id}/verification/check`;
    const other = (await t.createSession(document.id, 'tenant')).secret;
    await expectError(await call(t, 'POST', url, { key: other, body: 'code=123456', headers: { 'Content-Type': 'text/plain' } }), 415, 'VALIDATION_ERROR');
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) answers.push((await check(tenant, document.id, { code: '123456' }, `198.51.100.${i}`)).status);
    expect(answers.slice(0, 10).every((status) => status === 422)).toBe(true);
    expect(answers[10]).toBe(429);
  });
});
