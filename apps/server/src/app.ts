import { HTTPException } from 'hono/http-exception';
import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import { ApiError, methodNotAllowed, validationError } from './errors.js';
import { sendError } from './http/envelope.js';
import type { AppContext, AppDependencies } from './app-context.js';
import { createReadCache } from './http/read-cache.js';
import { sharedPdfPool } from './pdf-worker/index.js';
import { requestContext } from './middleware/request-context/index.js';
import { sdkCors } from './middleware/sdk-cors/index.js';
import { createOpenApiApp, type SignetApp } from './routes/openapi.js';
import { serveEndpoints } from './routes/serve.js';
import { sdkDocumentHandlers } from './routes/sdk-documents.js';
import { documentFileHandler } from './routes/sdk-document-file.js';
import { documentPreviewHandler } from './routes/sdk-document-preview.js';
import { submitHandler } from './routes/sdk-submit.js';
import { documentHandlers } from './routes/documents.js';
import { sealedDocumentHandlers } from './routes/sealed-documents.js';
import { verifyHandler } from './routes/verify.js';
import { sessionHandlers } from './routes/sessions.js';
import { declineHandler } from './routes/sdk-decline.js';
import { verificationHandlers } from './routes/sdk-verification.js';
import { draftHandlers } from './routes/drafts.js';
import { lifecycleHandlers } from './routes/lifecycle.js';
import { builderSessionHandlers } from './routes/builder-sessions.js';
import { templateHandlers } from './routes/templates.js';
import { templateFileHandler } from './routes/sdk-template-file.js';
import { bulkJobHandlers } from './routes/bulk-jobs.js';
import { webhookHandlers } from './routes/webhooks.js';
import { registerReferenceRoutes } from './routes/reference.js';
import { registerHealthRoute } from './routes/health.js';
import { registerEmbedRoutes } from './routes/embed-script.js';
import { registerMetricsRoute } from './routes/metrics.js';
import { remindHandler } from './routes/remind.js';
import { organizationHandlers } from './routes/organization.js';
import { registerSigningPage } from './routes/signing-page.js';
import { createMetrics } from './metrics/metrics.js';

export type { AppDependencies } from './app-context.js';

/** Whether `error` is Node's "aborted" of a request body whose connection has closed. */
function clientWentAway(c: Context, error: Error): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return (error as NodeJS.ErrnoException).code === 'ECONNRESET' && incoming !== undefined && incoming.socket.destroyed;
}

/** For the 405 of a known path with a wrong method: which methods the app's routes accept at a path. */
function methodsByPath(app: SignetApp): (path: string) => string[] {
  const routes = app.routes
    .filter((route) => route.method !== 'ALL' && !route.path.includes('*'))
    .map((route) => ({ method: route.method, pattern: new RegExp(`^${route.path.replace(/:[^/]+/g, '[^/]+')}$`) }));
  return (path) => [...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))];
}

/**
 * The Signet HTTP API as a Hono app: the SDK endpoints of the contract, the management endpoints, the OpenAPI
 * document and its reference page. Nothing here listens on a port (see `server.ts`), so tests call
 * `app.request(…)` on the real thing.
 * @example const app = createApp({ storage, rateLimits, config, secret, logger })
 */
export function createApp(dependencies: AppDependencies, options: { isShuttingDown?: () => boolean } = {}): SignetApp {
  const pdfPool = dependencies.pdfPool ?? sharedPdfPool();
  const deps: AppContext = {
    ...dependencies,
    reads: createReadCache(dependencies.storage),
    pdfPool,
    metrics: dependencies.metrics ?? createMetrics({ db: dependencies.storage.db, pdfPool, logger: dependencies.logger }),
  };
  const app = createOpenApiApp();
  app.use('*', requestContext({ logger: deps.logger, activity: deps.activity }));
  app.use('*', deps.metrics.http());
  app.use('/sdk/*', sdkCors());
  // `POST /verify` takes pk keys too: a host page may check a file its user holds.
  app.use('/verify', sdkCors());
  // A draft's routes take builder session keys, which a host page uses from its own origin.
  app.use('/documents/:documentId/draft', sdkCors());
  app.use('/documents/:documentId/send', sdkCors());
  // And so does a template's (docs/templates.md): `GET` and `PUT /templates/{templateId}`.
  app.use('/templates/:templateId', sdkCors());

  // Every endpoint of the contract's table (`endpoints`), each with its handler; the service routes below
  // (reference, health) are not part of the API contract.
  serveEndpoints(app, deps, {
    ...sdkDocumentHandlers(deps),
    ...documentFileHandler(deps),
    ...documentPreviewHandler(deps),
    ...submitHandler(deps),
    ...documentHandlers(deps),
    ...sealedDocumentHandlers(deps),
    ...verifyHandler(deps),
    ...webhookHandlers(deps),
    ...sessionHandlers(deps),
    ...declineHandler(deps),
    ...verificationHandlers(deps),
    ...draftHandlers(deps),
    ...builderSessionHandlers(deps),
    ...templateHandlers(deps),
    ...bulkJobHandlers(deps),
    ...templateFileHandler(deps),
    ...lifecycleHandlers(deps),
    ...remindHandler(deps),
    ...organizationHandlers(deps),
  });
  // The hosted signing page of the links sent by e-mail (docs/email.md); not part of the API contract.
  registerSigningPage(app, deps);
  registerReferenceRoutes(app);
  registerHealthRoute(app, deps, options.isShuttingDown ?? (() => false));
  registerEmbedRoutes(app);
  registerMetricsRoute(app, deps);

  let allowedMethods: ((path: string) => string[]) | undefined;
  app.notFound((c) => {
    allowedMethods ??= methodsByPath(app);
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0) return sendError(c, methodNotAllowed(c.req.method, c.req.path, allowed));
    return sendError(c, new ApiError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`));
  });

  app.onError((error, c) => {
    if (error instanceof ApiError) return sendError(c, error);
    if (error instanceof HTTPException && error.status < 500) {
      const reason = error.status === 400 ? 'the body could not be read' : error.message;
      return sendError(c, new ApiError('VALIDATION_ERROR', `Invalid request: ${reason}`, {
        status: error.status,
        details: { field: 'body', reason },
      }));
    }
    if (clientWentAway(c, error)) {
      // A client that hung up mid-body, or whose body the server cut off (a limit of http/node-server): nobody
      // reads this answer, and it is no server fault to log as one.
      deps.logger.info({ requestId: c.get('requestId') }, 'the connection closed before the request was read');
      return sendError(c, validationError('body', 'the connection closed before the body was complete'));
    }
    deps.logger.error({ requestId: c.get('requestId'), err: error }, 'unhandled error');
    return sendError(c, new ApiError('INTERNAL_ERROR', 'Internal server error'));
  });

  return app;
}
