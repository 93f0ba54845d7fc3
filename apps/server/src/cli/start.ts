/**
 * `pnpm start`: the product on this machine. Migrates the embedded store, seeds the demo organization the first
 * time (later runs keep the data and issue a fresh demo pk key, since keys are shown only once), starts the API and
 * prints what to open. Ctrl-C stops it gracefully.
 */
import { loadConfig } from '../config.js';
import { openStorage } from '../storage/index.js';
import { createApiKeyRecord, seedDemo } from '../documents/seed.js';
import { startServer } from '../server.js';

const DEMO_SLUG = 'demo';

const config = loadConfig();
const storage = await openStorage(config.databaseUrl);
let summary: { pk: string; sk?: string; documents: Array<{ id: string; filename: string; pageCount: number }> };
try {
  const existing = await storage.getOrganizationBySlug(DEMO_SLUG);
  if (existing) {
    const pk = await createApiKeyRecord(storage, { organizationId: existing.id, kind: 'pk' });
    const documents = await storage.listDocuments(existing.id, { limit: 10 });
    summary = { pk: pk.key, documents };
  } else {
    const seeded = await seedDemo(storage);
    summary = { pk: seeded.keys.pk.key, sk: seeded.keys.sk.key, documents: seeded.documents };
  }
} finally {
  await storage.close();
}

const server = await startServer({ config: { ...config, logLevel: process.env.LOG_LEVEL ? config.logLevel : 'warn' }, handleSignals: true });
const lines = [
  '',
  '  Signet is running',
  '',
  `  API             ${server.url}`,
  `  API reference   ${server.url}/docs`,
  `  OpenAPI         ${server.url}/openapi.json`,
  `  Data            ${config.databaseUrl ?? './.signet/signet.db'}`,
  '',
  `  Demo pk key     ${summary.pk}`,
  ...(summary.sk ? [`  Demo sk key     ${summary.sk}   (shown once; keep it)`] : []),
  '',
  '  Documents',
  ...summary.documents.map((d) => `    ${d.id}  ${d.filename} (${d.pageCount} page${d.pageCount === 1 ? '' : 's'})`),
  '',
  `  Try: curl -s ${server.url}/sdk/documents/${summary.documents[0]?.id ?? 'doc_…'} -H "X-API-Key: ${summary.pk}"`,
  '',
  '  Ctrl-C stops the server.',
  '',
];
console.log(lines.join('\n'));
