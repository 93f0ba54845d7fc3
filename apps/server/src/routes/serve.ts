import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { endpoints, type Endpoint, type EndpointName, type Endpoints } from '@signet/contract';
import { methodNotAllowed } from '../errors.js';
import { apiKey } from '../middleware/api-key/index.js';
import type { AppEnv } from '../http/env.js';
import type { AppContext } from '../app-context.js';
import { zodValidationError } from '../http/validation.js';
import type { DocumentRecord, TemplateRecord } from '../storage/types.js';
import { endpointRoute, type SignetApp } from './openapi.js';
import { documentByToken } from './sdk-document-token.js';
import { templateByToken } from './sdk-template-token.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** The document a document token granted (endpoints of `access: { by: 'document-token' }`). */
    tokenDocument: DocumentRecord;
    /** The template a template's document token granted (endpoints of `access: { by: 'template-token' }`). */
    tokenTemplate: TemplateRecord;
  }
}

/**
 * Parts of a request a handler reads and checks itself (or its access check does: the document token's id and
 * token) instead of having them validated against the table.
 */
type OwnPart = 'params' | 'query' | 'headers' | 'body';

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler is given: the request's parts validated against its endpoint's schemas. */
export type EndpointInput<E extends Endpoint> = {
  params: Output<E['request']['params']>;
  query: Output<E['request']['query']>;
  headers: Output<E['request']['headers']>;
};

/** How the server answers one endpoint of the contract's table. */
export interface EndpointHandler<E extends Endpoint, Own extends OwnPart = OwnPart> {
  /** Middleware ahead of the access check (a size limit that must hold before anything else). */
  before?: MiddlewareHandler<AppEnv>[];
  /** Middleware between the access check and the handler. */
  after?: MiddlewareHandler<AppEnv>[];
  /** The handler checks the key itself (validate-key answers an unusable key with a body of its own). */
  checksKeyItself?: true;
  /**
   * Parts the handler reads and checks itself, with its endpoint's schemas: every body (JSON through the strict
   * reader, uploads through the multipart parser), a part whose refusal differs from a schema's 400, or a part its
   * access check has already read.
   */
  readsItself?: readonly Own[];
  handle(c: Context<AppEnv>, input: Omit<EndpointInput<E>, Own>): Response | Promise<Response>;
}

/**
 * Infers a handler's types from its endpoint.
 * @example handler(endpoints.listDocuments, { handle: (c, { query }) => … })
 */
export function handler<E extends Endpoint, const Own extends OwnPart = never>(
  _endpoint: E,
  spec: EndpointHandler<E, Own>,
): EndpointHandler<E, NoInfer<Own>> {
  return spec;
}

/** A handler for every endpoint of the table: one missing does not compile. */
export type EndpointHandlers = { [Name in EndpointName]: EndpointHandler<Endpoints[Name]> };

/** How each part of a request is read (as Hono's validator reads it) and the field a 400 names when none is named. */
const requestParts = {
  params: { read: (c: Context<AppEnv>) => c.req.param(), field: 'param' },
  query: {
    read: (c: Context<AppEnv>) =>
      Object.fromEntries(Object.entries(c.req.queries()).map(([name, values]) => [name, values.length === 1 ? values[0] : values])),
    field: 'query',
  },
  headers: { read: (c: Context<AppEnv>) => c.req.header(), field: 'header' },
} as const;

function accessCheck(deps: AppContext, endpoint: Endpoint): MiddlewareHandler<AppEnv> {
  const { access } = endpoint;
  if (access.by === 'key') {
    return apiKey(deps, {
      scopes: [...access.scopes],
      secretOnly: !access.kinds.includes('pk'),
      sessions: access.sessions === true,
      ...(access.builders ? { builders: access.builders } : {}),
    });
  }
  if (access.by === 'template-token') {
    return async function templateTokenAccess(c, next) {
      c.set('tokenTemplate', await templateByToken(c, deps));
      await next();
    };
  }
  return async function documentTokenAccess(c, next) {
    c.set('tokenDocument', await documentByToken(c, deps));
    await next();
  };
}

const routingPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
const pathPattern = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);

/**
 * 405s for a fixed path that a parameter path of another method would take (`GET /sdk/documents/submit` is not a
 * document id but a wrong method): registered ahead of the endpoints.
 */
function serveShadowedMethods(app: SignetApp, table: readonly Endpoint[]): void {
  for (const fixed of table.filter((endpoint) => !endpoint.path.includes('{'))) {
    const allowed = table.filter((endpoint) => endpoint.path === fixed.path).map((endpoint) => endpoint.method.toUpperCase());
    const shadowing = table.filter((endpoint) => pathPattern(endpoint.path).test(fixed.path));
    for (const method of new Set(shadowing.map((endpoint) => endpoint.method.toUpperCase()))) {
      if (allowed.includes(method)) continue;
      app.on(method, fixed.path, (c) => {
        throw methodNotAllowed(c.req.method, c.req.path, allowed);
      });
    }
  }
}

/**
 * Registers every endpoint of the contract's table with its handler: the route and its OpenAPI description come
 * from one `endpointRoute(…)` definition; then its access check (the key's kind and scopes, or the document token),
 * the handler's own middleware, and the validation of the parts the handler does not read itself.
 * @example serveEndpoints(app, deps, { ...sdkDocumentHandlers(deps), … })
 */
export function serveEndpoints(app: SignetApp, deps: AppContext, handlers: EndpointHandlers): void {
  const strays = Object.keys(handlers).filter((name) => !Object.hasOwn(endpoints, name));
  const unserved = Object.keys(endpoints).filter((name) => !Object.hasOwn(handlers, name));
  if (strays.length + unserved.length > 0) {
    throw new Error(`handlers without an endpoint: [${strays.join(', ')}]; endpoints without a handler: [${unserved.join(', ')}]`);
  }
  serveShadowedMethods(app, Object.values(endpoints));
  for (const name of Object.keys(endpoints) as EndpointName[]) {
    const endpoint: Endpoint = endpoints[name];
    const spec = handlers[name] as EndpointHandler<Endpoint, OwnPart>;
    const own: readonly OwnPart[] = spec.readsItself ?? [];
    if (endpoint.request.body && !own.includes('body')) throw new Error(`${name}: its handler must read the body itself`);
    const route = endpointRoute(name, endpoint);
    app.openAPIRegistry.registerPath(route);
    // The parts the handler does not read itself, validated in the last step (a middleware less on the hot GET).
    const checks = (['params', 'query', 'headers'] as const).flatMap((part) => {
      const schema = endpoint.request[part];
      return schema && !own.includes(part) ? [{ part, schema, ...requestParts[part] }] : [];
    });
    app.on(
      [endpoint.method.toUpperCase()],
      [routingPath(endpoint.path)],
      ...(spec.before ?? []),
      ...(spec.checksKeyItself ? [] : [accessCheck(deps, endpoint)]),
      ...(spec.after ?? []),
      (c: Context<AppEnv>) => {
        const input: Record<string, unknown> = {};
        for (const { part, schema, read, field } of checks) {
          const result = schema.safeParse(read(c));
          if (!result.success) throw zodValidationError(result.error, field);
          input[part] = result.data;
        }
        return spec.handle(c, input as EndpointInput<Endpoint>);
      },
    );
  }
}
