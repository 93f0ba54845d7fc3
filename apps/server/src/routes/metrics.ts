import { createHash, timingSafeEqual } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { errorEnvelope } from '@signet/contract';
import { ApiError } from '../errors.js';
import { sendError } from '../http/envelope.js';
import type { AppContext } from '../app-context.js';
import type { SignetApp } from './openapi.js';

const envelope = (codes: Parameters<typeof errorEnvelope>[0]) => ({ 'application/json': { schema: errorEnvelope(codes) } });

/** `GET /metrics` as `/openapi.json` describes it: a service route, not part of the API contract's table. */
export const metricsRoute = createRoute({
  operationId: 'getMetrics',
  method: 'get',
  path: '/metrics',
  tags: ['Operations'],
  summary: 'Prometheus metrics of this instance',
  description:
    'The Prometheus text exposition of this server process (requests, PDF pool, jobs, webhooks, seals). Enabled by ' +
    '`SIGNET_METRICS_TOKEN`, and answered only with `Authorization: Bearer <SIGNET_METRICS_TOKEN>`; disabled (404) ' +
    'when it is unset. API keys are not accepted.',
  security: [{ MetricsToken: [] }],
  responses: {
    200: { description: 'The metrics', content: { 'text/plain': { schema: z.string() } } },
    401: {
      description: 'No token, or not the configured one (`INVALID_API_KEY`)',
      headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
      content: envelope(['INVALID_API_KEY']),
    },
    404: { description: 'Metrics are disabled: `SIGNET_METRICS_TOKEN` is unset (`NOT_FOUND`)', content: envelope(['NOT_FOUND']) },
  },
});

/** Whether `header` is `Bearer <token>`: compared in constant time, whatever its length. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  if (!match) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

/**
 * `GET /metrics` (docs/decisions.md, "Operations: metrics, readiness, shutdown"): this process's metrics for a
 * Prometheus scraper holding `SIGNET_METRICS_TOKEN`; 404, like a path the server does not have, while it is unset.
 */
export function registerMetricsRoute(app: SignetApp, deps: AppContext): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'MetricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: '`SIGNET_METRICS_TOKEN`, for `GET /metrics` only',
  });
  app.openAPIRegistry.registerPath(metricsRoute);
  app.get('/metrics', async (c) => {
    const token = deps.config.metricsToken;
    if (!token) return sendError(c, new ApiError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`));
    if (!bearerMatches(c.req.header('Authorization'), token)) {
      return sendError(
        c,
        new ApiError('INVALID_API_KEY', 'GET /metrics needs Authorization: Bearer <SIGNET_METRICS_TOKEN>', {
          details: { field: 'Authorization', reason: 'missing, or not the metrics token' },
          headers: { 'WWW-Authenticate': 'Bearer realm="signet-metrics"' },
        }),
      );
    }
    const text = await deps.metrics.text();
    return c.body(text, 200, { 'Content-Type': deps.metrics.contentType, 'Content-Length': String(Buffer.byteLength(text)) });
  });
}
