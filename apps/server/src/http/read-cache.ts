import { LRUCache } from 'lru-cache';
import type { AuthenticatedKey, DocumentRecord, Storage } from '../storage/types.js';
import { findApiKeyByHash, findApiKeyById } from '../storage/queries/api-keys.js';
import { findDocument } from '../storage/queries/documents.js';

/** The two reads on every SDK request, served from memory for a moment. */
export interface ReadCache {
  apiKey(hash: string): Promise<AuthenticatedKey | null>;
  /** The key of a document token (by its record's id): whether the key that obtained the token is still usable. */
  apiKeyById(id: string): Promise<AuthenticatedKey | null>;
  document(id: string): Promise<DocumentRecord | null>;
  /** Drops a document this instance has just changed, so its next read is fresh. */
  forgetDocument(id: string): void;
  /**
   * Drops a key this instance has just revoked (by its record's id), so that it, and the document tokens it
   * obtained, are refused at once here.
   */
  forgetApiKey(id: string): void;
}

/**
 * Short-lived caches (default 2 s) of key and document lookups, so that a burst of requests with one key for one
 * document touches storage once. What this costs: a key revoked elsewhere (the CLI, another instance) keeps
 * working for up to `ttlMs` (and so do the document tokens it obtained), and another instance may show a
 * just-completed document as pending that long. Submissions stay exact, because the storage's transaction decides
 * them. Misses are not cached.
 * @example const reads = createReadCache(storage); const key = await reads.apiKey(hashApiKey(secret))
 */
export function createReadCache(storage: Storage, { ttlMs = 2000, max = 10_000 } = {}): ReadCache {
  const keys = cachedLookup((hash) => findApiKeyByHash(storage.db.query, hash), { ttlMs, max });
  const keysById = cachedLookup((id) => findApiKeyById(storage.db.query, id), { ttlMs, max });
  const documents = cachedLookup((id) => findDocument(storage.db.query, id), { ttlMs, max });
  return {
    apiKey: keys.get,
    apiKeyById: keysById.get,
    document: documents.get,
    forgetDocument: documents.forget,
    forgetApiKey: (id) => {
      keys.forgetWhere((key) => key.id === id);
      keysById.forget(id);
    },
  };
}

/** `load` behind a short-lived LRU cache of its hits. */
function cachedLookup<T extends object>(load: (id: string) => Promise<T | null>, options: { ttlMs: number; max: number }) {
  const cache = new LRUCache<string, T>({ max: options.max, ttl: options.ttlMs });
  return {
    async get(id: string): Promise<T | null> {
      const cached = cache.get(id);
      if (cached) return cached;
      const found = await load(id);
      if (found) cache.set(id, found);
      return found;
    },
    forget(id: string): void {
      cache.delete(id);
    },
    forgetWhere(matches: (value: T) => boolean): void {
      for (const [id, value] of cache.entries()) if (matches(value)) cache.delete(id);
    },
  };
}
