import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSignet } from '../../test/support/cli.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../storage/index.js';
import { LEASE_SIGNERS, generateSamplePdf, sampleFields, sampleLeaseFields } from '../pdf/sample.js';
import { hashApiKey } from '../keys.js';
import { findApiKeyByHash } from '../storage/queries/api-keys.js';
import { findDocument } from '../storage/queries/documents.js';
import { findOrganizationBySlug } from '../storage/queries/organizations.js';

let dir: string;
let databaseUrl: string;

function signet(...args: string[]) {
  return runSignet(args, { env: { DATABASE_URL: databaseUrl }, cwd: dir });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-cli-'));
  databaseUrl = `file:${join(dir, 'cli.db')}`;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Each command starts a process that loads the built server (seconds on a busy CI machine).
describe('signet', { timeout: 60_000 }, () => {
  it('keys create --json prints the key once, creating the organization, and stores only its hash', async () => {
    const { code, stdout } = await signet('keys', 'create', '--org', 'acme', '--create-org', '--org-name', 'Acme Inc.', '--kind', 'pk', '--origins', 'https://app.acme.com', '--rate-limit', '120', '--expires-at', '2030-01-01T00:00:00Z', '--json');
    expect(code).toBe(0);
    const created = JSON.parse(stdout);
    expect(Object.keys(created).sort()).toEqual(['expiresAt', 'id', 'key', 'kind', 'organizationId', 'scopes']);
    expect(created).toMatchObject({ kind: 'pk', scopes: ['documents:read', 'documents:submit'], expiresAt: '2030-01-01T00:00:00.000Z' });
    expect(created.key).toMatch(/^pk_[A-Za-z0-9]{32,}$/);
    const storage = await openStorage(databaseUrl);
    try {
      const stored = await findApiKeyByHash(storage.db.query, hashApiKey(created.key));
      expect(stored).toMatchObject({ id: created.id, allowedOrigins: ['https://app.acme.com'], rateLimit: 120, organization: { slug: 'acme', name: 'Acme Inc.' } });
      expect(JSON.stringify(stored)).not.toContain(created.key);
    } finally {
      await storage.close();
    }
  });

  it('keys create refuses an organization that does not exist, unless --create-org, and creates nothing', async () => {
    const refused = await signet('keys', 'create', '--org', 'acmee', '--kind', 'sk');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim()).toBe('signet: no organization acmee: add --create-org to create it');
    const nameAlone = await signet('keys', 'create', '--org', 'acmee', '--org-name', 'Acme', '--kind', 'sk');
    expect(nameAlone.stderr.trim()).toBe('signet: --org-name goes with --create-org');
    const storage = await openStorage(databaseUrl);
    try {
      expect(await findOrganizationBySlug(storage.db.query, 'acmee')).toBeNull();
    } finally {
      await storage.close();
    }
    // An existing organization takes --create-org too, unchanged.
    const again = await signet('keys', 'create', '--org', 'acme', '--create-org', '--kind', 'sk', '--json');
    expect(again.code).toBe(0);
  });

  it('reads and writes relative paths from the caller\'s directory when run as pnpm signet', async () => {
    const caller = await mkdtemp(join(tmpdir(), 'signet-caller-'));
    try {
      await writeFile(join(caller, 'here.pdf'), await generateSamplePdf({ pages: 1 }));
      await writeFile(join(caller, 'here.json'), JSON.stringify(sampleFields(1)));
      const args = ['documents', 'create', '--org', 'acme', '--pdf', 'here.pdf', '--fields', 'here.json', '--json'];
      // pnpm runs the root script in the repository root and says where it was called from.
      const viaPnpm = await runSignet(args, { env: { DATABASE_URL: databaseUrl, npm_lifecycle_event: 'signet', INIT_CWD: caller }, cwd: dir });
      expect(viaPnpm.stderr).toBe('');
      expect(JSON.parse(viaPnpm.stdout)).toMatchObject({ filename: 'here.pdf', pageCount: 1 });
      // Run directly, the process's own directory is the caller's.
      const direct = await runSignet(args, { env: { DATABASE_URL: databaseUrl, npm_lifecycle_event: '', INIT_CWD: '' }, cwd: caller });
      expect(direct.code).toBe(0);
      const elsewhere = await runSignet(args, { env: { DATABASE_URL: databaseUrl, npm_lifecycle_event: '', INIT_CWD: '' }, cwd: dir });
      expect(elsewhere.stderr.trim()).toBe('signet: cannot read --pdf here.pdf: no such file');
    } finally {
      await rm(caller, { recursive: true, force: true });
    }
  });

  it('keys create without --json shows the key once, with a warning', async () => {
    const { code, stdout, stderr } = await signet('keys', 'create', '--org', 'acme', '--kind', 'sk');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^\s+Key:\s+sk_[A-Za-z0-9]{32,}$/m);
    expect(stdout).toMatch(/will not be shown again/);
  });

  it('keys revoke revokes, and fails with one line for an unknown key', async () => {
    const created = JSON.parse((await signet('keys', 'create', '--org', 'acme', '--kind', 'sk', '--json')).stdout);
    expect(created.scopes).toEqual(['documents:read', 'documents:submit', 'documents:write', 'webhooks:write']);
    const revoked = await signet('keys', 'revoke', created.id);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout.trim()).toBe(`Revoked ${created.id}: it and the document URLs it obtained are refused within 2 seconds.`);
    const unknown = await signet('keys', 'revoke', 'key_nothere');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr.trim().split('\n')).toEqual(['signet: no API key key_nothere']);
  });

  it.each([
    [['keys', 'create', '--org', 'acme', '--kind', 'xk'], /pk, sk/],
    [['keys', 'create', '--org', 'acme', '--kind', 'pk', '--scopes', 'documents:delete'], /unknown scope/],
    [['keys', 'create', '--org', 'acme', '--kind', 'pk', '--expires-at', 'tomorrow'], /ISO 8601/],
    [['keys', 'create', '--org', 'acme', '--kind', 'pk', '--rate-limit', '0'], /whole number/],
    [['keys', 'create', '--org', 'acme', '--kind', 'pk', '--origins', 'https://a.com/path'], /not an origin/],
    [['keys', 'create', '--org', 'acme', '--kind', 'sk', '--origins', 'https://a.com'], /pk keys only/],
    [['documents', 'create', '--org', 'nobody', '--pdf', 'x.pdf', '--fields', 'f.json'], /no organization nobody/],
    [['documents', 'create', '--org', 'acme', '--pdf', 'missing.pdf', '--fields', 'f.json'], /cannot read --pdf missing\.pdf: no such file/],
    [['keys', 'create', '--org', 'acme', '--kind', 'pk', '--expires-at', '2030-02-30'], /ISO 8601/],
    [['keys', 'revoke'], /missing required argument/],
    [['nonsense'], /unknown command/],
  ])('refuses %j with one line on stderr and a non-zero exit', async (args, message) => {
    const { code, stderr } = await signet(...args);
    expect(code).not.toBe(0);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^signet: /);
    expect(lines[0]).toMatch(message);
  });

  it('documents create --json prints the metadata; a bad field file fails naming the field', async () => {
    await writeFile(join(dir, 'a.pdf'), await generateSamplePdf({ pages: 2 }));
    await writeFile(join(dir, 'fields.json'), JSON.stringify(sampleFields(2)));
    await writeFile(join(dir, 'bad.json'), JSON.stringify([{ ...sampleFields(2)[1], page: 5 }]));
    const ok = await signet('documents', 'create', '--org', 'acme', '--pdf', 'a.pdf', '--fields', 'fields.json', '--json');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ id: expect.stringMatching(/^doc_/), filename: 'a.pdf', mimeType: 'application/pdf', pageCount: 2, version: 1, status: 'pending' });
    const bad = await signet('documents', 'create', '--org', 'acme', '--pdf', 'a.pdf', '--fields', 'bad.json');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim()).toMatch(/^signet: fields\[0\]\.page: /);
    const { required, ...typo } = sampleFields(2)[1]!;
    await writeFile(join(dir, 'typo.json'), JSON.stringify([{ ...typo, requried: required }]));
    const misspelt = await signet('documents', 'create', '--org', 'acme', '--pdf', 'a.pdf', '--fields', 'typo.json');
    expect(misspelt.code).not.toBe(0);
    expect(misspelt.stderr.trim()).toBe('signet: fields[0].requried: received unknown member "requried"; members not in the schema are refused, not ignored');
  });

  it('documents create --signers makes a document with signers; a field naming no signer fails naming it', async () => {
    await writeFile(join(dir, 'lease.pdf'), await generateSamplePdf({ pages: 2, countersigned: true }));
    await writeFile(join(dir, 'lease-fields.json'), JSON.stringify(sampleLeaseFields(2)));
    await writeFile(join(dir, 'signers.json'), JSON.stringify([...LEASE_SIGNERS]));
    await writeFile(join(dir, 'tenant-only.json'), JSON.stringify([LEASE_SIGNERS[0]]));
    const create = (...extra: string[]) =>
      signet('documents', 'create', '--org', 'acme', '--pdf', 'lease.pdf', '--fields', 'lease-fields.json', ...extra);
    const ok = await create('--signers', 'signers.json', '--signing-order', 'sequential', '--json');
    expect(ok.code).toBe(0);
    const created = JSON.parse(ok.stdout);
    expect(created.signingOrder).toBe('sequential');
    expect(created.signers.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      ['tenant', 'ready'],
      ['landlord', 'waiting'],
    ]);
    const text = await create('--signers', 'signers.json');
    expect(text.stdout).toMatch(/2 signers \(parallel\)\.$/m);
    const bad = await create('--signers', 'tenant-only.json');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim()).toMatch(/^signet: fields\[\d+\]\.signerId: no signer "landlord"/);
    const order = await create('--signers', 'signers.json', '--signing-order', 'random');
    expect(order.stderr.trim()).toMatch(/^signet: signingOrder: /);
    // As the server: without SIGNET_SMTP_URL, a code to e-mail could never reach its signer.
    await writeFile(join(dir, 'coded.json'), JSON.stringify([{ ...LEASE_SIGNERS[0], auth: 'email_code' }, LEASE_SIGNERS[1]]));
    const coded = await create('--signers', 'coded.json');
    expect(coded.code).not.toBe(0);
    expect(coded.stderr.trim()).toBe('signet: signers[0].auth: "email_code" needs a server that sends e-mail (SIGNET_SMTP_URL is not set)');
  });

  it('seed --json creates the demo organization, documents with every field type, and two working keys', async () => {
    const { code, stdout } = await signet('seed', '--json');
    expect(code).toBe(0);
    const seeded = JSON.parse(stdout);
    expect(seeded.organization).toMatchObject({ slug: 'demo', name: 'Demo Company' });
    expect(seeded.documents.length).toBeGreaterThanOrEqual(2);
    expect(seeded.keys.pk.key).toMatch(/^pk_/);
    expect(seeded.keys.sk.key).toMatch(/^sk_/);
    const storage = await openStorage(databaseUrl);
    try {
      const document = await findDocument(storage.db.query, seeded.documents[0].id);
      expect(new Set(document!.fields.map((f) => f.type))).toEqual(new Set(['text', 'signature', 'initials', 'date', 'checkbox']));
    } finally {
      await storage.close();
    }
  });

  it('migrate and --help work', async () => {
    expect((await signet('migrate')).stdout).toMatch(/migrated \(sqlite\)/);
    const help = await signet('--help');
    for (const command of ['serve', 'migrate', 'keys', 'documents', 'seed']) expect(help.stdout).toContain(command);
    const keysHelp = await signet('keys', 'create', '--help');
    expect(keysHelp.code).toBe(0);
    for (const option of ['--org', '--create-org', '--org-name', '--kind', '--scopes', '--expires-at', '--origins', '--rate-limit', '--json']) expect(keysHelp.stdout).toContain(option);
  });
});
