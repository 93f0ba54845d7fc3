import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliStore, type CliStore } from '../../test/support/cli.js';
import { openStorage } from '../storage/index.js';
import { generateSamplePdf, sampleLeaseFields } from '../pdf/sample.js';

/* `signet templates bulk` as a user runs it, on a store of their own (docs/templates.md, "Bulk"). */

let store: CliStore;
let templateId: string;
const signet = (...args: string[]) => store.signet(...args);

const ROLES = [
  { id: 'tenant', name: 'Tenant', order: 1 },
  { id: 'landlord', name: 'Landlord', order: 2 },
];

beforeAll(async () => {
  store = await cliStore('signet-cli-bulk-', {
    'lease.pdf': await generateSamplePdf({ pages: 1 }),
    'fields.json': sampleLeaseFields(1),
    'roles.json': ROLES,
    'rows.csv': [
      'key,tenant.name,tenant.email,landlord.name,values.agreement_number,values.signed_date',
      'lease-1,Tina Tenant,tina@example.com,Lars Landlord,AGR-1,',
      'lease-2,Tom Tenant,,Lars Landlord,AGR-2,2026-02-31',
      'lease-3,Tara Tenant,,Lars Landlord,AGR-3,',
    ].join('\n'),
    'bad.csv': 'key,tenant.name\nlease-1,Tina\n',
  });
  const created = await signet('templates', 'create', '--org', 'acme', '--pdf', 'lease.pdf', '--fields', 'fields.json', '--roles', 'roles.json', '--json');
  expect(created.code, created.stderr).toBe(0);
  templateId = (JSON.parse(created.stdout) as { id: string }).id;
}, 120_000);
afterAll(() => store.close());

// Each command starts a process that loads the built server (seconds on a busy CI machine).
describe('signet templates bulk', { timeout: 120_000 }, () => {
  it('makes one document per row, waits, and prints the summary with the failed rows', async () => {
    const run = await signet('templates', 'bulk', templateId, '--csv', 'rows.csv');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Bulk job blk_\\w+ of template ${templateId} version 1: completed, 3 rows, 2 created, 1 failed\\.`));
    expect(run.stdout).toContain('row 1 (lease-2): values.signed_date.content:');

    // Again: the row keys made their documents already; nothing new is made, and they are reported.
    const again = await signet('templates', 'bulk', templateId, '--csv', 'rows.csv', '--json');
    expect(again.code, again.stderr).toBe(0);
    const job = JSON.parse(again.stdout) as { status: string; total: number; created: number; failed: number; failedRows: Array<{ key: string }> };
    expect(job).toMatchObject({ status: 'completed', total: 3, created: 2, failed: 1 });
    expect(job.failedRows.map((row) => row.key)).toEqual(['lease-2']);
    const storage = await openStorage(store.databaseUrl);
    try {
      const documents = await storage.db.query.selectFrom('documents').select('id').where('template_id', '=', templateId).execute();
      expect(documents).toHaveLength(2);
    } finally {
      await storage.close();
    }
  });

  it('starts the job without waiting, and refuses a CSV that does not fit the template', async () => {
    const started = await signet('templates', 'bulk', templateId, '--csv', 'rows.csv', '--no-wait', '--json');
    expect(started.code, started.stderr).toBe(0);
    expect(JSON.parse(started.stdout)).toMatchObject({ status: 'pending', total: 3, created: 0 });

    const bad = await signet('templates', 'bulk', templateId, '--csv', 'bad.csv');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/line 1: the column "landlord\.name" is required/);
  });
});
