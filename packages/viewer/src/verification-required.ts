import { SigningApiError } from '@signet/api';
import type { VerificationRequiredDetails } from '@signet/contract';

/**
 * The details of a 403 `VERIFICATION_REQUIRED`, or null for any other failure (docs/signer-auth.md). Apart from the
 * prompt itself, which loads only when a signer must prove who they are.
 * @example const details = verificationRequired(query.error); if (details) return <VerificationPrompt details={details} … />
 */
export function verificationRequired(error: unknown): VerificationRequiredDetails | null {
  if (!(error instanceof SigningApiError) || error.code !== 'VERIFICATION_REQUIRED') return null;
  const details = error.details as Partial<VerificationRequiredDetails> | undefined;
  return details?.method === 'email_code' || details?.method === 'access_code' ? (details as VerificationRequiredDetails) : null;
}
