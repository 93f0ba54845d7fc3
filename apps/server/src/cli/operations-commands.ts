/**
 * The operations commands of `signet`: what a running server says about itself (`metrics`).
 */
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { CliError } from './common.js';

/** How long `signet metrics` waits for the server. */
const TIMEOUT_MS = 10_000;

/** Why a server refused, from its error envelope when it sent one. */
async function refusal(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const { error } = JSON.parse(text) as { error: { code: string; message: string } };
    return `${response.status} ${error.code}: ${error.message}`;
  } catch {
    return `${response.status} ${text.slice(0, 200)}`;
  }
}

/** Why a fetch failed: the system's code (`ECONNREFUSED`), which undici keeps in its cause. */
function why(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } }).cause;
  return cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error as Error).message;
}

/** Adds `metrics` to the program. */
export function registerOperationsCommands(program: Command): void {
  program
    .command('metrics')
    .description("print a running server's Prometheus metrics (GET /metrics with its SIGNET_METRICS_TOKEN)")
    .option('--url <url>', 'the server (default: http://HOST:PORT of this environment)')
    .option('--token <token>', 'the metrics token (default: SIGNET_METRICS_TOKEN)')
    .action(async (options: { url?: string; token?: string }) => {
      const config = loadConfig();
      const token = options.token ?? config.metricsToken;
      if (!token) throw new CliError('no metrics token: pass --token or set SIGNET_METRICS_TOKEN');
      const base = options.url ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
      let url: URL;
      try {
        url = new URL('/metrics', base);
      } catch {
        throw new CliError(`--url ${base}: not a URL`);
      }
      let response: Response;
      try {
        response = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(TIMEOUT_MS) });
      } catch (error) {
        throw new CliError(`cannot reach ${url.origin}: ${why(error)}`);
      }
      if (response.status === 404) throw new CliError(`${url.origin} serves no metrics: ${await refusal(response)} (is SIGNET_METRICS_TOKEN set on the server?)`);
      if (!response.ok) throw new CliError(`${url.origin} refused: ${await refusal(response)}`);
      process.stdout.write(await response.text());
    });
}
