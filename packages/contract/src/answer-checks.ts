import type { AnswerCheck } from './answer-check.js';
import { checkErrorEnvelope as errorEnvelope, generatedEndpoints } from './answer-checks.generated.js';
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

/**
 * The endpoints of {@link endpoints} as a client calls them, without zod: made from the same table and its schemas
 * by `scripts/generate-answer-checks.ts`, so a browser refuses an answer that breaks the contract without bundling
 * zod.
 * @example
 * const { method, path, answer } = endpointChecks.getDocument;
 * const result = answer!(await response.json()); // { success: true, data } or { success: false, issues }
 */
export const endpointChecks: { readonly [N in EndpointName]: EndpointChecks<Endpoints[N]> } = generatedEndpoints;

/** The check of the error envelope (contract §2.1) a refusal comes in. */
export const checkErrorEnvelope: AnswerCheck<ErrorEnvelope> = errorEnvelope as AnswerCheck<ErrorEnvelope>;
