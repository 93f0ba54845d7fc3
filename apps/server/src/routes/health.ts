import { createRoute, z } from '@hono/zod-openapi';
import { errorEnvelope } from '@signet/contract';
import type { SignetApp } from './openapi.js';
import type { AppContext } from '../app-context.js';
import { ApiError } from '../errors.js';
import { sendError } from '../http/envelope.js';
import { MIGRATIONS } from '../storage/migrations.js';

/** How long one readiness check may take before it counts as not answering. */
const CHECK_TIMEOUT_MS = 2000;

const HealthSchema = z.object({ status: z.enum(['ok', 'shutting-down']), storage: z.enum(['sqlite', 'postgres']), rateLimits: z.enum(['memory', 'redis']) });
const ReadySchema = z.object({
  status: z.literal('ready'),
  checks: z.record(z.string(), z.string()).meta({ description: 'Each check and `ok` (Redis: `not configured` without REDIS_URL)' }),
});
const unavailable = { 'application/json': { schema: errorEnvelope(['SERVICE_UNAVAILABLE']) } };

/** `GET /healthz` and `GET /readyz` as `/openapi.json` describes them: service routes, outside the contract's table. */
export const healthRoute = createRoute({
  operationId: 'getHealth',
  method: 'get',
  path: '/healthz',
  tags: ['Operations'],
  summary: 'Liveness: the process answers',
  responses: {
    200: { description: 'Serving', content: { 'application/json': { schema: HealthSchema } } },
    503: { description: 'Shutting down', content: { 'application/json': { schema: HealthSchema } } },
  },
});
export const readyRoute = createRoute({
  operationId: 'getReadiness',
  method: 'get',
  path: '/readyz',
  tags: ['Operations'],
  summary: 'Readiness: the store answers, its migrations are applied, Redis answers when configured',
  responses: {
    200: { description: 'Ready to take requests', content: { 'application/json': { schema: ReadySchema } } },
    503: {
      description: 'Not ready (`SERVICE_UNAVAILABLE`): `details.checks` says which check failed and why, `details.reason` names them',
      headers: { 'Retry-After': { schema: { type: 'string' } } },
      content: unavailable,
    },
  },
});

/** `check` within `CHECK_TIMEOUT_MS`: `ok`, or why not. */
async function outcome(check: () => Promise<string | void>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([check().then((result) => result ?? 'ok'), late]);
  } catch (error) {
    return `failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}

/** Each readiness check and its outcome (`ok`, or why not). */
async function readiness(deps: AppContext, shuttingDown: boolean): Promise<Record<string, string>> {
  const db = deps.storage.db;
  const [storage, migrations, redis] = await Promise.all([
    outcome(async () => void (await db.get('SELECT 1 AS one'))),
    outcome(async () => {
      const applied = new Set((await db.query.selectFrom('schema_migrations').select('version').execute()).map((row) => Number(row.version)));
      const pending = MIGRATIONS.filter((migration) => !applied.has(migration.version)).map((migration) => migration.version);
      return pending.length === 0 ? 'ok' : `pending: ${pending.join(', ')} (signet migrate)`;
    }),
    deps.rateLimits.backend === 'redis' ? outcome(() => deps.rateLimits.ping()) : Promise.resolve('not configured'),
  ]);
  return { ...(shuttingDown ? { server: 'shutting down' } : {}), storage, migrations, redis };
}

/**
 * `GET /healthz`: 200 while the server takes requests (liveness); reports the storage engine and rate-limit
 * backend. `GET /readyz`: 200 when the store answers a query, every migration is applied and Redis answers when
 * configured; 503 with the error envelope naming what is not ready otherwise, and while shutting down.
 */
export function registerHealthRoute(app: SignetApp, deps: AppContext, isShuttingDown: () => boolean): void {
  app.openAPIRegistry.registerPath(healthRoute);
  app.openAPIRegistry.registerPath(readyRoute);
  app.get('/healthz', (c) => {
    const body = {
      status: isShuttingDown() ? 'shutting-down' : 'ok',
      storage: deps.storage.engine,
      rateLimits: deps.rateLimits.backend,
    };
    return c.json(body, isShuttingDown() ? 503 : 200);
  });
  app.get('/readyz', async (c) => {
    const checks = await readiness(deps, isShuttingDown());
    const failing = Object.entries(checks).filter(([, result]) => result !== 'ok' && result !== 'not configured');
    if (failing.length === 0) return c.json({ status: 'ready' as const, checks }, 200);
    const reason = failing.map(([name, result]) => `${name}: ${result}`).join('; ');
    return sendError(c, new ApiError('SERVICE_UNAVAILABLE', `Not ready: ${failing.map(([name]) => name).join(', ')}`, { details: { reason, checks }, headers: { 'Retry-After': '5' } }));
  });
}
