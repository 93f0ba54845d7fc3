import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoServerCommand } from './demo-server.js';

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

// Chosen once by the runner; its workers inherit them through the environment.
process.env.SIGNET_E2E_API_PORT ??= String(await freePort());
process.env.SIGNET_E2E_DEMO_PORT ??= String(await freePort());
process.env.SIGNET_E2E_DIR ??= mkdtempSync(join(tmpdir(), 'signet-e2e-'));
const apiPort = process.env.SIGNET_E2E_API_PORT;
const demoPort = process.env.SIGNET_E2E_DEMO_PORT;
const dir = process.env.SIGNET_E2E_DIR;
export const demoUrl = `http://127.0.0.1:${demoPort}`;

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  // One retry in CI: a flow that fails once under the load of a two-core run and then passes is reported as flaky
  // by name in the run's closing table (docs/decisions.md, "Continuous integration"); twice is a failure.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['html', { open: 'never', outputFolder: './playwright-report' }]],
  use: {
    baseURL: demoUrl,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium: Playwright cannot download its own browser here.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    // The product as `pnpm start` runs it (built demo page, API on the embedded store), on free ports and a fresh store.
    command: demoServerCommand,
    url: `${demoUrl}/demo-api/config`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    env: {
      PORT: apiPort,
      DEMO_PORT: demoPort,
      DATABASE_URL: `file:${join(dir, 'signet.db')}`,
      SIGNET_STATE_FILE: join(dir, 'state.json'),
      LOG_LEVEL: 'warn',
    },
  },
});
