import { LRUCache } from 'lru-cache';
import type { AuthenticatedKey, DocumentRecord, Storage } from '../storage/types.js';

/** The two reads on every SDK request, served from memory for a moment. */
export interface ReadCache {
  apiKey(hash: string): Promise<AuthenticatedKey | null>;
  document(id: string): Promise<DocumentRecord | null>;
  /** Drops a document this instance has just changed, so its next read is fresh. */
  forgetDocument(id: string): void;
}

/**
 * Short-lived caches (default 2 s) of key and document lookups, so that a burst of requests with one key for one
 * document touches storage once. What this costs: a key revoked elsewhere (the CLI, another instance) keeps
 * working for up to `ttlMs`, and another instance may show a just-completed document as pending that long.
 * Submissions stay exact, because the storage's transaction decides them. Misses are not cached.
 * @example const reads = createReadCache(storage); const key = await reads.apiKey(hashApiKey(secret))
 */
export function createReadCache(storage: Storage, { ttlMs = 2000, max = 10_000 } = {}): ReadCache {
  const keys = new LRUCache<string, AuthenticatedKey>({ max, ttl: ttlMs });
  const documents = new LRUCache<string, DocumentRecord>({ max, ttl: ttlMs });
  return {
    async apiKey(hash) {
      const cached = keys.get(hash);
      if (cached) return cached;
      const key = await storage.findApiKeyByHash(hash);
      if (key) keys.set(hash, key);
      return key;
    },
    async document(id) {
      const cached = documents.get(id);
      if (cached) return cached;
      const document = await storage.getDocument(id);
      if (document) documents.set(id, document);
      return document;
    },
    forgetDocument(id) {
      documents.delete(id);
    },
  };
}
