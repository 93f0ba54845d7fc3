import { readFile } from 'node:fs/promises';
import { Scalar } from '@scalar/hono-api-reference';
import type { SignetApp } from './openapi.js';

/**
 * The reference page's script: copied beside the built module (`tsdown.config.ts`), so that a deployment needs none
 * of `@scalar/api-reference`'s dependencies (a development dependency); the source, run with tsx, reads it from the
 * package, which exports no path to it: it sits beside the package's main entry.
 */
async function readScalarBundle(): Promise<string> {
  try {
    return await readFile(new URL('./scalar-standalone.js', import.meta.url), 'utf8');
  } catch {
    return readFile(new URL('./browser/standalone.js', import.meta.resolve('@scalar/api-reference')), 'utf8');
  }
}
let scalarBundle: Promise<string> | undefined;

/**
 * `GET /openapi.json` (OpenAPI 3.1, generated from the contract's schemas) and `GET /docs`, a readable API
 * reference (Scalar). The page's script is served from this server, so the reference works offline and behind a
 * strict CSP.
 */
export function registerReferenceRoutes(app: SignetApp): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: '`pk_…` (public, browsers, /sdk only) or `sk_…` (secret, servers)',
  });
  app.doc31('/openapi.json', (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'Signet signing API',
      version: '1.0.0',
      description:
        'Validate an API key, fetch a document with its predefined fields, submit the completed fields; manage documents with secret keys.',
    },
    servers: [{ url: new URL(c.req.url).origin }],
  }));
  app.get('/docs/scalar.js', async (c) => {
    scalarBundle ??= readScalarBundle();
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(await scalarBundle, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });
  app.get(
    '/docs',
    Scalar({
      url: '/openapi.json',
      pageTitle: 'Signet API reference',
      cdn: '/docs/scalar.js',
      // A self-hosted reference: none of Scalar's hosted services (AI agent, MCP, deploy, telemetry).
      agent: { disabled: true },
      showDeveloperTools: 'never',
      telemetry: false,
      hideClientButton: true,
      authentication: { preferredSecurityScheme: 'ApiKey' },
    }),
  );
}
