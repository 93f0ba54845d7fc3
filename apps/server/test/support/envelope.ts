import { ErrorEnvelopeSchema } from '@signet/contract';
import { expect } from 'vitest';

/**
 * Asserts that `response` is the contract's error envelope with `status` and `code`, whose request id is the one
 * the `X-Request-Id` header names; resolves with its `error` member.
 * @example const error = await expectError(await t.app.request('/documents'), 401, 'UNAUTHORIZED');
 */
export async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = ErrorEnvelopeSchema.parse(await response.json());
  expect(body.error.code).toBe(code);
  expect(body.meta.requestId).toBe(response.headers.get('X-Request-Id'));
  return body.error;
}
