/**
 * `pnpm start`: the product on this machine. Migrates the embedded store (`./.signet/`, or DATABASE_URL), seeds the
 * demo organization the first time (later runs keep the data), issues this run's demo keys, starts the API and the
 * demo host page on another origin, registers the demo's backend as a webhook endpoint of the API (the page shows
 * the events it receives), and prints what to open. Ctrl-C stops both gracefully.
 *
 * Environment: PORT (API, default 3000), DEMO_PORT (default 5173), HOST (default 127.0.0.1), and every variable
 * of the API server, except that SIGNET_WEBHOOKS_ALLOW_PRIVATE is always true: the demo's webhook receiver is on
 * this machine, an address a production server refuses to send to. SIGNET_STATE_FILE, when set, receives the URLs
 * and this run's keys as JSON (for the e2e tests).
 */
import { serve, type ServerType } from '@hono/node-server';
import { createSigningClient } from '@signet/api';
import { loadConfig } from '@signet/server/config';
import { DEMO_SLUG, prepareDemoRun } from '@signet/server/seed';
import { startServer } from '@signet/server/server';
import { openStorage } from '@signet/server/storage';
import { writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { WEBHOOK_PATH, createDemoApp } from './demo-app.js';
import { startMailInbox } from './mail-inbox.js';
import { registerDemoWebhook } from './register-webhook.js';

const config = loadConfig();
const demoPort = Number(process.env.DEMO_PORT ?? 5173);
const distDir = fileURLToPath(new URL('../dist', import.meta.url));

const storage = await openStorage(config.databaseUrl);
// Keys are shown only once, so each run issues its own: a pk for the page, an sk for the demo's backend.
const run = await prepareDemoRun(storage, { sk: true }).finally(() => storage.close());
const keys = { pk: run.keys.pk, sk: run.keys.sk! };

// Without SIGNET_SMTP_URL, the mail Signet sends (invitations, reminders) goes to the demo's own catcher, shown on the
// page, so that a first run shows the e-mail flow with no mail server (docs/email.md, "Trying it").
const mailInbox = config.mail ? undefined : await startMailInbox({ host: '127.0.0.1' });
const mail = config.mail ?? { smtpUrl: mailInbox!.smtpUrl, from: 'Northwind Leasing via Signet <signet@demo.localhost>', timeoutMs: 15_000 };

const quiet = process.env.LOG_LEVEL ? config.logLevel : 'warn';
const api = await startServer({
  config: { ...config, logLevel: quiet, webhooks: { ...config.webhooks, allowPrivate: true }, mail },
});
let webhookSecret: string | undefined;
const demoApp = createDemoApp({
  apiUrl: api.url,
  pk: keys.pk,
  sk: keys.sk,
  distDir,
  webhookSecret: () => webhookSecret,
  ...(mailInbox ? { mail: mailInbox } : {}),
});
const demo = await new Promise<ServerType>((resolve) => {
  const server = serve({ fetch: demoApp.fetch, port: demoPort, hostname: config.host }, () => resolve(server));
});
const address = demo.address();
const demoUrl = `http://${config.host}:${typeof address === 'object' && address ? address.port : demoPort}`;
// Registered once the demo listens, so that its URL is known (DEMO_PORT may be 0).
const webhook = await registerDemoWebhook(createSigningClient({ apiKey: keys.sk, baseUrl: api.url }), `${demoUrl}${WEBHOOK_PATH}`);
webhookSecret = webhook.secret;

if (process.env.SIGNET_STATE_FILE) {
  writeFileSync(process.env.SIGNET_STATE_FILE, JSON.stringify({ apiUrl: api.url, demoUrl, ...keys }));
}

console.log(
  [
    '',
    '  Signet is running',
    '',
    `  Demo page       ${demoUrl}          ← open this`,
    `  API             ${api.url}`,
    `  API reference   ${api.url}/docs`,
    `  Data            ${config.databaseUrl ?? './.signet/signet.db'}${run.seeded ? ' (seeded now)' : ''}`,
    `  Webhooks        ${demoUrl}${WEBHOOK_PATH} (${webhook.id}), shown beside the open document`,
    `  Mail            ${mailInbox ? `caught at ${mailInbox.smtpUrl}, shown in the page's Mail panel` : `sent through SIGNET_SMTP_URL`}`,
    '',
    `  Organization    ${DEMO_SLUG} (the CLI's --org ${DEMO_SLUG})`,
    `  Demo pk key     ${keys.pk}   (browsers: the page, the viewer)`,
    `  Demo sk key     ${keys.sk}   (servers: curl, the client, the CLI's examples; shown once)`,
    `  Open directly   ${demoUrl}/?documentId=<doc_…>&apiKey=${keys.pk}&baseUrl=${api.url}`,
    '',
    `  Try             curl -s ${api.url}/documents -H "X-API-Key: ${keys.sk}"`,
    '',
    '  Ctrl-C stops everything.',
    '',
  ].join('\n'),
);

// Ctrl-C reaches every process of the terminal's group: the PDF workers leave their stopping to the API's pool,
// which closes them once the work under way is done. A second Ctrl-C exits at once.
let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) process.exit(128 + (constants.signals[signal] ?? 0));
  stopping = true;
  Promise.all([
    new Promise<void>((resolve) => {
      demo.close(() => resolve());
      if ('closeAllConnections' in demo) demo.closeAllConnections();
    }),
    api.close(),
    mailInbox?.close(),
  ]).then(
    () => {
      console.log('  Stopped.');
      process.exit(0);
    },
    (error: unknown) => {
      console.error(`  Could not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
