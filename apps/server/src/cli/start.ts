/**
 * `pnpm start`: the product on this machine. Migrates the embedded store, seeds the demo organization the first
 * time (later runs keep the data and issue a fresh demo pk key, since keys are shown only once), starts the API and
 * prints what to open. Ctrl-C stops it gracefully.
 */
import { loadConfig } from '../config.js';
import { DEMO_SLUG, prepareDemoRun } from '../documents/seed.js';
import { openStorage } from '../storage/index.js';
import { startServer } from '../server.js';

const config = loadConfig();
const storage = await openStorage(config.databaseUrl);
const summary = await prepareDemoRun(storage, { sk: true }).finally(() => storage.close());

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
  `  Organization    ${DEMO_SLUG} (the CLI's --org ${DEMO_SLUG})`,
  `  Demo pk key     ${summary.keys.pk}`,
  ...(summary.keys.sk ? [`  Demo sk key     ${summary.keys.sk}   (shown once; keep it)`] : []),
  '',
  '  Documents',
  ...summary.documents.map((d) => `    ${d.id}  ${d.filename} (${d.pageCount} page${d.pageCount === 1 ? '' : 's'})`),
  '',
  `  Try: curl -s ${server.url}/sdk/documents/${summary.documents[0]?.id ?? 'doc_…'} -H "X-API-Key: ${summary.keys.pk}"`,
  '',
  '  Ctrl-C stops the server.',
  '',
];
console.log(lines.join('\n'));
