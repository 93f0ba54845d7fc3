import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import { errorEnvelope, type Endpoint, type EndpointAccess, type EndpointContent } from '@signet/contract';
import type { AppEnv } from '../http/env.js';

/** The Hono app with the OpenAPI registry its routes are described in (see `serveEndpoints`). */
export function createOpenApiApp() {
  return new OpenAPIHono<AppEnv>();
}
export type SignetApp = ReturnType<typeof createOpenApiApp>;

const content = (body: EndpointContent) => ({ [body.mediaType]: { schema: body.schema } });

function accessSentence(access: EndpointAccess): string {
  if (access.by !== 'key') return '';
  const kinds = access.kinds.map((kind) => `\`${kind}_\``).join(' or ');
  const scopes = access.scopes.map((scope) => `\`${scope}\``).join(', ');
  return `${kinds} key${scopes ? ` with scope ${scopes}` : ''}.`;
}

/**
 * The `createRoute(…)` definition of a contract endpoint: what the server registers it under and describes it with
 * in `/openapi.json`. Its scopes are the roles of its security requirement (OpenAPI 3.1 allows them for API keys);
 * each refusal is the error envelope narrowed to the codes it carries.
 * @example app.openAPIRegistry.registerPath(endpointRoute('getDocument', endpoints.getDocument))
 */
export function endpointRoute(operationId: string, endpoint: Endpoint): RouteConfig {
  const { method, path, tags, summary, access, request } = endpoint;
  const description = [accessSentence(access), endpoint.description].filter(Boolean).join(' ');
  const responses: RouteConfig['responses'] = {};
  for (const [status, response] of Object.entries(endpoint.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.headers ? { headers: response.headers } : {}),
      ...(response.content ? { content: content(response.content) } : {}),
    };
  }
  for (const [status, error] of Object.entries(endpoint.errors)) {
    responses[status] = {
      description: `${error.description} (${error.codes.map((code) => `\`${code}\``).join(' or ')})`,
      ...(error.headers ? { headers: error.headers } : {}),
      content: content({ mediaType: 'application/json', schema: errorEnvelope(error.codes) }),
    };
  }
  return createRoute({
    operationId,
    method,
    path,
    tags: [...tags],
    summary,
    ...(description ? { description } : {}),
    ...(access.by === 'key' ? { security: [{ ApiKey: [...access.scopes] }] } : {}),
    request: {
      ...(request.params ? { params: request.params } : {}),
      ...(request.query ? { query: request.query } : {}),
      ...(request.headers ? { headers: request.headers } : {}),
      ...(request.body
        ? { body: { required: true, content: Object.assign(content(request.body), ...(request.bodyAlternatives ?? []).map(content)) } }
        : {}),
    },
    responses,
  });
}
