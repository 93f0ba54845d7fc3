import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '@signet/contract';
import type { AppContext } from '../app-context.js';
import { createTestApp, type TestApp } from '../../test/support/harness.js';
import { createOpenApiApp } from './openapi.js';
import { serveEndpoints, type EndpointHandlers } from './serve.js';

/**
 * Routes that are not part of the API contract: the OpenAPI document, its reference page and script, health and
 * readiness, metrics, the script tags (the signing viewer's and the builder's), and the hosted signing page (an HTML
 * page for people, docs/email.md).
 */
const SERVICE_ROUTES = [
  'GET /openapi.json',
  'GET /docs',
  'GET /docs/scalar.js',
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
  'GET /embed.js',
  'GET /builder.js',
  'GET /embed/{version}/{file}',
  'GET /sign/{token}',
];
/** The service routes `/openapi.json` describes too (operations, outside the contract's table). */
const DESCRIBED_SERVICE_ROUTES = ['getHealth: GET /healthz', 'getReadiness: GET /readyz', 'getMetrics: GET /metrics'];
/** A fixed path that a parameter route of another method would take, answered 405 (`serveEndpoints`). */
const METHOD_GUARDS = ['GET /sdk/documents/submit'];

const table = Object.entries(endpoints).map(([name, { method, path }]) => ({ name, route: `${method.toUpperCase()} ${path}` }));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the endpoint table and the server', () => {
  it('the app serves exactly the endpoints of the table, besides the service routes', () => {
    const served = new Set(
      t.app.routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path.replace(/:([^/]+)/g, '{$1}')}`),
    );
    expect([...served].sort()).toEqual([...table.map(({ route }) => route), ...SERVICE_ROUTES, ...METHOD_GUARDS].sort());
  });

  it('/openapi.json describes exactly the endpoints of the table, each under its name as operationId, and the operations routes', async () => {
    const document = (await (await t.app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const described = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => `${operation.operationId}: ${method.toUpperCase()} ${path}`),
    );
    expect(described.sort()).toEqual([...table.map(({ name, route }) => `${name}: ${route}`), ...DESCRIBED_SERVICE_ROUTES].sort());
  });

  it('a method guard answers 405 with the methods the table allows', async () => {
    const res = await t.app.request('/sdk/documents/submit');
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('POST');
  });

  it('refuses to start with an endpoint that has no handler, or a handler that has no endpoint', () => {
    const handlers = Object.fromEntries(
      (Object.keys(endpoints) as EndpointName[]).map((name) => [name, { readsItself: ['query', 'headers', 'body'], handle: () => new Response() }]),
    ) as unknown as EndpointHandlers;
    const deps = {} as AppContext;
    expect(() => serveEndpoints(createOpenApiApp(), deps, handlers)).not.toThrow();
    const { getSubmission: _, ...missing } = handlers;
    expect(() => serveEndpoints(createOpenApiApp(), deps, missing as EndpointHandlers)).toThrow(/endpoints without a handler: \[getSubmission\]/);
    const extra = { ...handlers, deleteDocument: handlers.getSubmission };
    expect(() => serveEndpoints(createOpenApiApp(), deps, extra)).toThrow(/handlers without an endpoint: \[deleteDocument\]/);
  });
});
