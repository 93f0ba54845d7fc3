import { secretBox, type SecretBox } from '../secret-box.js';

/**
 * The box the endpoints' signing secrets are kept in: AES-256-GCM under a key derived from `SIGNET_SECRET`, so a
 * copy of the database alone does not sign webhooks.
 * @example const box = webhookSecrets(secret); const stored = box.seal(Buffer.from(newWebhookSecret()));
 */
export function webhookSecrets(secret: string): SecretBox {
  return secretBox(secret, 'signet webhook secrets');
}
