import type { AnswerCheck } from './answer-check.js';
import { builderEndpoints, checkErrorEnvelope as errorEnvelope, managementEndpoints, sdkEndpoints } from './answer-checks.generated.js';
import type { EndpointName, Endpoints } from './endpoints.js';
import type { ErrorEnvelope } from './schemas/envelope.js';

export { checkFieldValue, checkPageInfo, checkRenderContext, checkTimestamp } from './answer-checks.generated.js';

/** What a client needs of an endpoint at run time: its method and path, and the checks of its JSON answers. */
export interface EndpointChecks<E extends Endpoints[EndpointName] = Endpoints[EndpointName]> {
  readonly method: E['method'];
  readonly path: E['path'];
  /** Its 2xx JSON answer (absent for a file). */
  readonly answer?: AnswerCheck<unknown>;
  /** A refusal with a body of the endpoint's own instead of the error envelope (validate-key's 401). */
  readonly refusal?: AnswerCheck<unknown>;
}

/** The endpoints a signer's browser calls: a session key's and the document token's. */
export type SdkEndpointName = keyof typeof sdkEndpoints;

/** The endpoints an author's browser calls with a builder session key (drafts, templates). */
export type BuilderEndpointName = keyof ReturnType<typeof builderEndpoints>;

/** A table of endpoints' checks, by name. */
export type EndpointCheckTable<N extends EndpointName = EndpointName> = { readonly [K in N]: EndpointChecks<Endpoints[K]> };

/**
 * The endpoints a browser calls, as a client calls them, without zod: made from the contract's table and schemas by
 * `scripts/generate-answer-checks.ts`, so a browser refuses an answer that breaks the contract without bundling zod.
 * @example
 * const { method, path, answer } = sdkEndpointChecks.getDocument;
 * const result = answer!(await response.json()); // { success: true, data } or { success: false, issues }
 */
export const sdkEndpointChecks: EndpointCheckTable<SdkEndpointName> = sdkEndpoints;

let builderTable: EndpointCheckTable<SdkEndpointName | BuilderEndpointName> | undefined;
let everyEndpoint: EndpointCheckTable | undefined;

/**
 * The checks of what a builder calls (the SDK endpoints and those a builder session key may call), made on first
 * call: the builder's bundle carries no management endpoint's.
 * @example builderEndpointChecks().getDraft.answer!(body)
 */
export function builderEndpointChecks(): EndpointCheckTable<SdkEndpointName | BuilderEndpointName> {
  return (builderTable ??= { ...sdkEndpoints, ...builderEndpoints() });
}

/**
 * Every endpoint's checks, the builder's and management endpoints' made on first call: a bundle that calls only the
 * SDK endpoints (the viewer) never includes them.
 * @example allEndpointChecks().createSession.answer!(body)
 */
export function allEndpointChecks(): EndpointCheckTable {
  return (everyEndpoint ??= { ...builderEndpointChecks(), ...managementEndpoints() });
}

/** The check of the error envelope (docs/api.md, "Envelope") a refusal comes in. */
export const checkErrorEnvelope: AnswerCheck<ErrorEnvelope> = errorEnvelope as AnswerCheck<ErrorEnvelope>;
