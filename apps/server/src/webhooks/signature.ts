import { createHmac, randomBytes } from 'node:crypto';

/**
 * A new endpoint secret in Standard Webhooks' form: `whsec_` and the base64 of 32 random bytes (the HMAC key).
 * @example newWebhookSecret() // 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD…'
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header of a request: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each secret
 * (the key is the base64-decoded part after `whsec_`), space-separated: two during a secret's rotation.
 * @example signWebhook([secret], 'msg_…', 1732400000, '{"type":…}') // 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='
 */
export function signWebhook(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
