import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliStore, type CliStore } from '../../test/support/cli.js';
import { generateSamplePdf, sampleLeaseFields } from '../pdf/sample.js';

/* `signet templates …` as a user runs them, on a store of their own (docs/templates.md). */

const ROLES = [
  { id: 'tenant', name: 'Tenant', order: 1 },
  { id: 'landlord', name: 'Landlord', order: 2 },
];

let store: CliStore;
const signet = (...args: string[]) => store.signet(...args);

beforeAll(async () => {
  store = await cliStore('signet-cli-templates-', {
    'lease.pdf': await generateSamplePdf({ pages: 1 }),
    'fields.json': sampleLeaseFields(1),
    'roles.json': ROLES,
    'request.json': {
      signers: [{ role: 'tenant', name: 'Tina Tenant' }, { role: 'landlord', name: 'Lars Landlord' }],
      values: { signer_company: { type: 'text', content: 'Acme' } },
    },
    'change.json': { name: 'Lease 2027', fields: sampleLeaseFields(1), roles: ROLES, signingOrder: 'sequential' },
  });
});
afterAll(() => store.close());

// Each command starts a process that loads the built server (seconds on a busy CI machine).
describe('signet templates', { timeout: 120_000 }, () => {
  it('creates, lists, shows, updates and uses a template, mints and revokes a builder session, deletes it', async () => {
    const created = await signet('templates', 'create', '--org', 'acme', '--pdf', 'lease.pdf', '--name', 'Lease', '--fields', 'fields.json', '--roles', 'roles.json', '--expires-in-days', '30', '--json');
    expect(created.code, created.stderr).toBe(0);
    const template = JSON.parse(created.stdout) as { id: string; version: number; roles: unknown; expiresInDays: number };
    expect(template).toMatchObject({ version: 1, roles: ROLES, expiresInDays: 30 });

    expect((await signet('templates', 'list', '--org', 'acme')).stdout).toContain(`${template.id}: Lease (lease.pdf, 1 pages, 9 fields, roles tenant, landlord (parallel)), version 1`);
    expect(JSON.parse((await signet('templates', 'show', template.id)).stdout)).toMatchObject({ id: template.id, name: 'Lease' });

    const updated = await signet('templates', 'update', template.id, '--content', 'change.json', '--version', '1');
    expect(updated.stdout.trim()).toMatch(/^Updated template tpl_\w+: Lease 2027 .*version 2\.$/);
    const stale = await signet('templates', 'update', template.id, '--content', 'change.json', '--version', '1');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/version/);

    const used = await signet('templates', 'use', template.id, '--request', 'request.json', '--json');
    expect(used.code, used.stderr).toBe(0);
    expect(JSON.parse(used.stdout)).toMatchObject({ status: 'pending', expiresAt: expect.any(String) });
    const unbound = await signet('templates', 'use', template.id);
    expect(unbound.code).toBe(1);
    expect(unbound.stderr).toMatch(/signers/);

    const minted = await signet('templates', 'builder-sessions', 'create', template.id, '--origins', 'https://app.acme.com', '--json');
    const session = JSON.parse(minted.stdout) as { id: string; key: string; templateId: string };
    expect(session).toMatchObject({ templateId: template.id, key: expect.stringMatching(/^pk_/) });
    expect((await signet('templates', 'builder-sessions', 'revoke', template.id, session.id)).stdout.trim()).toBe(`Revoked ${session.id}.`);

    expect((await signet('templates', 'delete', template.id)).stdout.trim()).toBe(`Deleted template ${template.id}.`);
    expect((await signet('templates', 'show', template.id)).stderr.trim()).toBe(`signet: no template ${template.id}`);
  });

  it('refuses bad input naming the option', async () => {
    expect((await signet('templates', 'create', '--org', 'nope', '--pdf', 'lease.pdf')).stderr.trim()).toBe('signet: no organization nope');
    expect((await signet('templates', 'create', '--org', 'acme', '--pdf', 'missing.pdf')).stderr.trim()).toBe('signet: cannot read --pdf missing.pdf: no such file');
    const badRoles = await signet('templates', 'create', '--org', 'acme', '--pdf', 'lease.pdf', '--roles', 'fields.json');
    expect(badRoles.code).toBe(1);
    expect(badRoles.stderr).toMatch(/roles\[0\]/);
    expect((await signet('templates', 'create', '--org', 'acme', '--pdf', 'lease.pdf', '--expires-in-days', '0')).code).not.toBe(0);
    expect((await signet('templates', 'use', 'tpl_nope')).stderr.trim()).toBe('signet: no template tpl_nope');
  });
});
