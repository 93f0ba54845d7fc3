import type { AuthenticatedKey } from '../storage/types.js';

/** Hono's environment for Signet: per-request variables set by the middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** When the request arrived (ms since the epoch). */
    receivedAt: number;
    /** The authenticated API key; set by `middleware/api-key`. */
    apiKey: AuthenticatedKey;
    /** Set by routes that authenticate, for the request log. */
    keyId: string;
  };
}
