import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test/support/envelope.js';
import { call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { createApiKeyRecord } from '../documents/seed.js';
import { ensureOrganization, findOrganizationProfile } from '../storage/queries/organizations.js';

/*
 * `GET` and `PATCH /organization` (docs/email.md, "Branding"): an sk key reads and changes its own organization's
 * name and brand colour, and no other's. The auth matrix of both, and hostile input to the PATCH. On both engines.
 */

const data = async (response: Response) => ((await response.json()) as { data: any }).data;

describe.each(engines)('organization on $name', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { AUTH_FAILURES_PER_MINUTE: '10000' });
  });
  afterAll(() => t.close());

  /** A fresh organization with an sk key of it, so that each test changes its own. */
  async function organization() {
    const created = await ensureOrganization(t.storage.db.query, `brand-${randomBytes(4).toString('hex')}`, 'Acme Lettings');
    return { ...created, sk: (await t.createKey({ kind: 'sk' }, created.id)).secret };
  }

  it('reads the name and no colour at first; a PATCH sets, lower-cases and clears the colour, and renames', async () => {
    const org = await organization();
    const read = await call(t, 'GET', '/organization', { key: org.sk });
    expect(read.status).toBe(200);
    expect(await data(read)).toEqual({ id: org.id, name: 'Acme Lettings', brandColor: null });

    const branded = await call(t, 'PATCH', '/organization', { key: org.sk, body: { brandColor: '#0A7D4F' } });
    expect(branded.status).toBe(200);
    expect(await data(branded)).toEqual({ id: org.id, name: 'Acme Lettings', brandColor: '#0a7d4f' });

    const renamed = await call(t, 'PATCH', '/organization', { key: org.sk, body: { name: '  Acme Property Management  ' } });
    expect(await data(renamed)).toEqual({ id: org.id, name: 'Acme Property Management', brandColor: '#0a7d4f' });
    expect(await findOrganizationProfile(t.storage.db.query, org.id)).toEqual({ id: org.id, name: 'Acme Property Management', brandColor: '#0a7d4f' });

    const cleared = await call(t, 'PATCH', '/organization', { key: org.sk, body: { brandColor: null } });
    expect(await data(cleared)).toEqual({ id: org.id, name: 'Acme Property Management', brandColor: null });
    expect(await data(await call(t, 'GET', '/organization', { key: org.sk }))).toEqual({ id: org.id, name: 'Acme Property Management', brandColor: null });
  });

  it("changes only the key's own organization", async () => {
    const [ours, theirs] = [await organization(), await organization()];
    await call(t, 'PATCH', '/organization', { key: ours.sk, body: { name: 'Ours', brandColor: '#112233' } });
    expect(await data(await call(t, 'GET', '/organization', { key: theirs.sk }))).toEqual({ id: theirs.id, name: 'Acme Lettings', brandColor: null });
    expect(await data(await call(t, 'GET', '/organization', { key: ours.sk }))).toMatchObject({ id: ours.id, name: 'Ours' });
  });

  describe('the auth matrix', () => {
    const endpoints = [
      { name: 'getOrganization', method: 'GET', scope: 'documents:read' as const, body: undefined },
      { name: 'updateOrganization', method: 'PATCH', scope: 'documents:write' as const, body: { brandColor: '#ff0000' } },
    ];
    for (const endpoint of endpoints) {
      it(`${endpoint.name}: no key, bad keys, a pk key, a missing scope, from a browser, session and builder keys, expired and revoked keys`, async () => {
        const org = await organization();
        const request = (key: string | undefined, headers: Record<string, string> = {}) =>
          call(t, endpoint.method, '/organization', { ...(key === undefined ? {} : { key }), ...(endpoint.body ? { body: endpoint.body } : {}), headers });
        const key = (options: Parameters<TestApp['createKey']>[0]) => t.createKey(options, org.id).then((created) => created.secret);

        await expectError(await request(undefined), 401, 'INVALID_API_KEY');
        await expectError(await request('sk_short'), 401, 'INVALID_API_KEY');
        await expectError(await request(`sk_${'Z'.repeat(40)}`), 401, 'INVALID_API_KEY');
        await expectError(await request(await key({ kind: 'sk', expiresAt: new Date(Date.now() - 1000).toISOString() })), 401, 'EXPIRED_API_KEY');
        await expectError(await request(await key({ kind: 'sk', revokedAt: new Date().toISOString() })), 401, 'INVALID_API_KEY');
        // A pk key, even one with every scope: the organization is managed from servers only.
        await expectError(await request(await key({ kind: 'pk', scopes: ['documents:read', 'documents:write'] })), 403, 'INSUFFICIENT_PERMISSIONS');
        const lacking = await key({ kind: 'sk', scopes: endpoint.scope === 'documents:read' ? ['documents:write'] : ['documents:read', 'webhooks:write'] });
        expect((await expectError(await request(lacking), 403, 'INSUFFICIENT_PERMISSIONS')).details?.required).toEqual([endpoint.scope]);
        await expectError(await request(org.sk, { Origin: 'https://host.example' }), 403, 'INSUFFICIENT_PERMISSIONS');
        const document = await t.createDocument({ pages: 1, organizationId: org.id });
        const session = await createApiKeyRecord(t.storage, { organizationId: org.id, kind: 'pk', documentId: document.id });
        await expectError(await request(session.key), 403, 'INSUFFICIENT_PERMISSIONS');
        const builder = await createApiKeyRecord(t.storage, {
          organizationId: org.id,
          kind: 'pk',
          scopes: ['documents:read', 'documents:write'],
          documentId: document.id,
          builder: 'edit',
        });
        await expectError(await request(builder.key), 403, 'INSUFFICIENT_PERMISSIONS');

        // Nothing was changed by any of them.
        expect(await findOrganizationProfile(t.storage.db.query, org.id)).toMatchObject({ brandColor: null });
        expect((await request(org.sk)).status).toBe(200);
      });
    }
  });

  describe('hostile input', () => {
    it('colours that are not #rrggbb, CSS, bad names, wrong types, unknown members: 400 naming the member, nothing changed', async () => {
      const org = await organization();
      await call(t, 'PATCH', '/organization', { key: org.sk, body: { brandColor: '#0a7d4f' } });
      const cases: Array<[unknown, string]> = [
        [{ brandColor: 'red' }, 'brandColor'],
        [{ brandColor: '#fff' }, 'brandColor'],
        [{ brandColor: '#0a7d4f80' }, 'brandColor'],
        [{ brandColor: '0a7d4f' }, 'brandColor'],
        [{ brandColor: '#fff;}body{' }, 'brandColor'],
        [{ brandColor: '#0a7d4f;}body{display:none}' }, 'brandColor'],
        [{ brandColor: '#0a7d4f\n' }, 'brandColor'],
        [{ brandColor: ' #0a7d4f' }, 'brandColor'],
        [{ brandColor: 'url(https://evil.example/x.png)' }, 'brandColor'],
        [{ brandColor: 'rgb(10, 125, 79)' }, 'brandColor'],
        [{ brandColor: 'var(--x)' }, 'brandColor'],
        [{ brandColor: '#0a7d4g' }, 'brandColor'],
        [{ brandColor: '</style><script>alert(1)</script>' }, 'brandColor'],
        [{ brandColor: 0x0a7d4f }, 'brandColor'],
        [{ brandColor: ['#0a7d4f'] }, 'brandColor'],
        [{ name: '' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ name: 'Acme\r\nBcc: victim@example.com' }, 'name'],
        [{ name: 42 }, 'name'],
        [{ name: null }, 'name'],
        [{ slug: 'mine' }, 'slug'],
        [{ id: 'org_XXXXXXXXXXXXXXXXXXXXXXXX' }, 'id'],
        [{ brandColour: '#0a7d4f' }, 'brandColour'],
        [{ name: 'Acme', theme: { accent: '#0a7d4f' } }, 'theme'],
        ['{"name":', 'body'],
        ['[]', 'body'],
        ['"Acme"', 'body'],
        [{}, 'body'],
        [{ name: 'a\u0000b' }, 'name'],
      ];
      for (const [body, field] of cases) {
        const error = await expectError(await call(t, 'PATCH', '/organization', { key: org.sk, body }), 400, 'VALIDATION_ERROR');
        expect(error.details?.field, JSON.stringify(body).slice(0, 80)).toBe(field);
      }
      const tooLarge = await expectError(await call(t, 'PATCH', '/organization', { key: org.sk, body: { name: 'x'.repeat(8 * 1024) } }), 413, 'VALIDATION_ERROR');
      expect(tooLarge.details?.field).toBe('body');
      const notJson = await call(t, 'PATCH', '/organization', { key: org.sk, body: '{"name":"Acme"}', headers: { 'Content-Type': 'text/plain' } });
      expect((await expectError(notJson, 415, 'VALIDATION_ERROR')).details?.field).toBe('Content-Type');
      expect(await findOrganizationProfile(t.storage.db.query, org.id)).toEqual({ id: org.id, name: 'Acme Lettings', brandColor: '#0a7d4f' });
    });
  });
});
