import type { ServerProcess } from './server-process.js';

/** One document's submission as its client sees it across crashes and retries. */
export interface ClientSubmission {
  documentId: string;
  payload: Record<string, unknown> & { checksum: string };
  idempotencyKey: string | undefined;
  /** The submission id of the first 2xx answer: from then on the server owes it. */
  acknowledged?: string;
  /** Later 2xx answers naming another submission id (there must be none). */
  contradicted: string[];
  /** Requests that got no whole answer: the connection failed or the server died. */
  unanswered: number;
  /** The last refusal, if the last answer was one. */
  refused?: { status: number; code: string | undefined; retryAfter: string | null };
}

type Outcome = 'acknowledged' | 'refused' | 'unanswered';

/** Sends `submission` once; what the client learned is recorded on it. */
export async function submitOnce(url: string, key: string, submission: ClientSubmission): Promise<Outcome> {
  let status: number;
  let body: { submissionId?: string; error?: { code?: string } };
  let retryAfter: string | null;
  try {
    const response = await fetch(`${url}/sdk/documents/submit`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-API-Key': key,
        ...(submission.idempotencyKey ? { 'Idempotency-Key': submission.idempotencyKey } : {}),
      },
      body: JSON.stringify(submission.payload),
    });
    status = response.status;
    retryAfter = response.headers.get('Retry-After');
    // Acknowledged only once the whole answer has arrived: a status line without its body is no answer.
    body = (await response.json()) as typeof body;
  } catch {
    submission.unanswered++;
    return 'unanswered';
  }
  if (status >= 200 && status < 300 && body.submissionId) {
    delete submission.refused;
    if (submission.acknowledged === undefined) submission.acknowledged = body.submissionId;
    else if (body.submissionId !== submission.acknowledged) submission.contradicted.push(body.submissionId);
    return 'acknowledged';
  }
  submission.refused = { status, code: body.error?.code, retryAfter };
  return 'refused';
}

/** What one round of submitting saw. */
export interface RoundResult {
  acknowledged: number;
  refused: number;
  /** Requests the kill left without an answer. */
  unanswered: number;
  /** Submissions not sent because the server was being killed. */
  notSent: number;
}

/**
 * Sends every submission of `submissions` to `server`, `concurrency` at a time. With `killAfter`, the server is sent
 * SIGKILL as the `killAfter`-th acknowledgement arrives, while the other requests are still in flight; nothing more
 * is sent after that.
 * @example await submitRound(server, pk, pending, { concurrency: 16, killAfter: 100 })
 */
export async function submitRound(
  server: ServerProcess,
  key: string,
  submissions: ClientSubmission[],
  options: { concurrency: number; killAfter?: number },
): Promise<RoundResult> {
  const queue = [...submissions];
  const result: RoundResult = { acknowledged: 0, refused: 0, unanswered: 0, notSent: 0 };
  let killed: Promise<void> | undefined;
  const client = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (killed) {
        result.notSent++;
        continue;
      }
      const outcome = await submitOnce(server.url, key, next);
      result[outcome]++;
      if (outcome === 'acknowledged' && options.killAfter !== undefined && result.acknowledged >= options.killAfter) {
        killed ??= server.kill9();
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, client));
  await killed;
  return result;
}
