import type { SignetApp } from './openapi.js';
import type { AppContext } from '../app-context.js';

/** `GET /healthz`: 200 while the server takes requests; reports the storage engine and rate-limit backend. */
export function registerHealthRoute(app: SignetApp, deps: AppContext, isShuttingDown: () => boolean): void {
  app.get('/healthz', (c) => {
    const body = {
      status: isShuttingDown() ? 'shutting-down' : 'ok',
      storage: deps.storage.engine,
      rateLimits: deps.rateLimits.backend,
    };
    return c.json(body, isShuttingDown() ? 503 : 200);
  });
}
