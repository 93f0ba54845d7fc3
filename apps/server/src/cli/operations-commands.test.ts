import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/harness.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const TOKEN = `mt_${randomBytes(24).toString('base64url')}`;

function signet(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const { SIGNET_METRICS_TOKEN: _, ...inherited } = process.env;
    execFile(TSX, [MAIN, ...args], { env: { ...inherited, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });
}

/** `t`'s app on a loopback port. */
function listen(t: TestApp): Promise<{ url: string; server: ServerType }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve({ url: `http://127.0.0.1:${info.port}`, server }));
  });
}

/** A loopback port nothing listens on (one just given back). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

let enabled: TestApp;
let disabled: TestApp;
const running: ServerType[] = [];
let on: string;
let off: string;

beforeAll(async () => {
  enabled = await createTestApp(undefined, { SIGNET_METRICS_TOKEN: TOKEN });
  disabled = await createTestApp();
  for (const [t, set] of [[enabled, (url: string) => (on = url)], [disabled, (url: string) => (off = url)]] as const) {
    const { url, server } = await listen(t);
    running.push(server);
    set(url);
  }
});
afterAll(async () => {
  for (const server of running) await new Promise((resolve) => server.close(resolve));
  await enabled.close();
  await disabled.close();
});

describe('signet metrics', { timeout: 60_000 }, () => {
  it("prints a running server's metrics, with --token or SIGNET_METRICS_TOKEN", async () => {
    const given = await signet(['metrics', '--url', on, '--token', TOKEN]);
    expect(given.code).toBe(0);
    expect(given.stdout).toContain('# TYPE signet_http_requests_total counter');
    expect(given.stdout).toContain('signet_jobs{kind="seal",state="pending"}');
    const fromEnv = await signet(['metrics', '--url', on], { SIGNET_METRICS_TOKEN: TOKEN });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stdout).toContain('signet_pdf_queue_depth');
  });

  it('fails in one line: no token, a wrong token, a server without metrics, no server', async () => {
    const none = await signet(['metrics', '--url', on]);
    expect(none).toMatchObject({ code: 1, stdout: '', stderr: 'signet: no metrics token: pass --token or set SIGNET_METRICS_TOKEN\n' });
    const wrong = await signet(['metrics', '--url', on, '--token', `${TOKEN}x`]);
    expect(wrong).toMatchObject({ code: 1, stdout: '' });
    expect(wrong.stderr).toBe(`signet: ${on} refused: 401 INVALID_API_KEY: GET /metrics needs Authorization: Bearer <SIGNET_METRICS_TOKEN>\n`);
    const disabledServer = await signet(['metrics', '--url', off, '--token', TOKEN]);
    expect(disabledServer.code).toBe(1);
    expect(disabledServer.stderr).toMatch(/serves no metrics: 404 NOT_FOUND: .*SIGNET_METRICS_TOKEN set on the server/);
    const closed = await closedPort();
    const nobody = await signet(['metrics', '--url', `http://127.0.0.1:${closed}`, '--token', TOKEN]);
    expect(nobody).toMatchObject({ code: 1, stderr: `signet: cannot reach http://127.0.0.1:${closed}: ECONNREFUSED\n` });
  });
});
