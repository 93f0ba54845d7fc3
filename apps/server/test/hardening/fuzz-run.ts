import { drawFor } from './fuzz-draw.js';
import { answerProblem, type Answer } from './fuzz-oracle.js';
import { ENDPOINTS, fuzzRequest, type Endpoint, type FuzzRequest, type FuzzTargets } from './fuzz-requests.js';

/** Sends one request to the server under test and reads its whole answer. */
export type Send = (request: FuzzRequest) => Promise<Answer>;

/** A request whose answer broke the contract. */
export interface FuzzFailure {
  /** `endpoint#index`, what `SIGNET_FUZZ_CASE` takes to draw it again alone. */
  id: string;
  problem: string;
  status: number;
  recipe: string[];
  /** The start of the answer's body. */
  answer: string;
  /** What the server logged about it at level error, if anything. */
  logged?: string;
  /** The request before it and its status: over HTTP a connection carries state from one to the next. */
  after?: string;
}

export interface FuzzReport {
  endpoint: Endpoint;
  requests: number;
  /** How many answers of each status. */
  statuses: Record<number, number>;
  failures: FuzzFailure[];
  ms: number;
  /** The slowest requests: case id, milliseconds, how it was made. */
  slowest: Array<{ id: string; ms: number; recipe: string[] }>;
}

export interface FuzzRunOptions {
  endpoint: Endpoint;
  seed: number;
  /** Requests to send. */
  runs: number;
  /** Where the case indexes of this run start (so that two runs with one seed draw different cases). */
  offset?: number;
  /** Only this case index (from `SIGNET_FUZZ_CASE`). */
  only?: number;
  targets: FuzzTargets;
  send: Send;
  /** Called after each answer, e.g. to replace a document that a submission completed. */
  afterAnswer?: (request: FuzzRequest, answer: Answer) => Promise<void>;
  /** What the server logged at level error for a request id. */
  loggedError?: (requestId: string) => string | undefined;
}

/** The index range of an endpoint's cases, so that one seed gives each endpoint cases of its own. */
const ENDPOINT_STRIDE = 100_000_000;

/**
 * Sends `runs` generated requests to one endpoint, one at a time, and checks every answer.
 * @example const report = await fuzzEndpoint({ endpoint: 'submit', seed, runs: 1000, targets, send })
 */
export async function fuzzEndpoint(options: FuzzRunOptions): Promise<FuzzReport> {
  const { endpoint, seed, runs, targets, send } = options;
  const base = ENDPOINTS.indexOf(endpoint) * ENDPOINT_STRIDE + (options.offset ?? 0);
  const report: FuzzReport = { endpoint, requests: 0, statuses: {}, failures: [], ms: 0, slowest: [] };
  const started = performance.now();
  const indexes = options.only === undefined ? Array.from({ length: runs }, (_, i) => i) : [options.only];
  let previous: string | undefined;
  for (const index of indexes) {
    const request = fuzzRequest(drawFor(seed, base + index), endpoint, targets);
    let answer: Answer;
    const sent = performance.now();
    try {
      answer = await send(request);
    } catch (error) {
      // Over HTTP: the connection failed before an answer came.
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      answer = { status: 0, headers: new Headers(), text: `${(error as Error).message}${cause ? `: ${cause}` : ''}` };
    }
    const ms = performance.now() - sent;
    if (report.slowest.length < 3 || ms > report.slowest.at(-1)!.ms) {
      report.slowest = [...report.slowest, { id: `${endpoint}#${index}`, ms, recipe: request.recipe }].sort((a, b) => b.ms - a.ms).slice(0, 3);
    }
    report.requests++;
    report.statuses[answer.status] = (report.statuses[answer.status] ?? 0) + 1;
    const problem = answer.status === 0 ? `no answer (${answer.text})` : answerProblem(request, answer);
    if (problem) {
      const requestId = answer.headers.get('X-Request-Id');
      report.failures.push({
        id: `${endpoint}#${index}`,
        problem,
        status: answer.status,
        recipe: request.recipe,
        answer: answer.text.slice(0, 300),
        logged: requestId ? options.loggedError?.(requestId) : undefined,
        after: previous,
      });
    }
    previous = `${endpoint}#${index} (${answer.status}): ${request.recipe.join('; ').slice(0, 200)}`;
    await options.afterAnswer?.(request, answer);
  }
  report.ms = performance.now() - started;
  return report;
}

/** Which case `SIGNET_FUZZ_CASE` (`endpoint#index`) names for `endpoint`: undefined to run them all, null for none. */
export function onlyCase(value: string | undefined, endpoint: Endpoint): number | null | undefined {
  if (!value) return undefined;
  const [name, index] = value.split('#');
  return name === endpoint ? Number(index) : null;
}

/**
 * The failures of a report as text: how many of each problem, then the first few in full, each with how to draw
 * it again.
 */
export function describeFailures(report: FuzzReport, where: string, reproduce: (failure: FuzzFailure) => string): string {
  const counts = new Map<string, number>();
  for (const failure of report.failures) counts.set(failure.problem, (counts.get(failure.problem) ?? 0) + 1);
  const lines = [`${report.failures.length} of ${report.requests} answers from ${report.endpoint} ${where} broke the contract:`];
  for (const [problem, count] of counts) lines.push(`  ${count} × ${problem}`);
  for (const failure of report.failures.slice(0, 8)) {
    lines.push(
      '',
      `${failure.id}: ${failure.problem}`,
      `  made by: ${failure.recipe.join('; ')}`,
      `  answer: ${failure.answer}`,
      ...(failure.logged ? [`  logged: ${failure.logged}`] : []),
      ...(failure.after ? [`  after: ${failure.after}`] : []),
      `  again: ${reproduce(failure)}`,
    );
  }
  return lines.join('\n');
}
