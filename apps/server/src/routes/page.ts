import type { Context } from 'hono';
import { encodeCursor } from '../documents/cursor.js';
import type { AppEnv } from '../http/env.js';
import { responseMeta } from '../http/envelope.js';

/**
 * A page of `items` fetched one longer than `limit`, as the paginated list (docs/api.md, "Pagination"): its cursor is
 * the last item's (createdAt, id), as `GET /documents`, `/templates` and `/webhooks` page.
 * @example return sendPage(c, rows, limit, documentMetadata)
 */
export function sendPage<T extends { createdAt: string; id: string }, U>(c: Context<AppEnv>, items: T[], limit: number, present: (item: T) => U) {
  const hasMore = items.length > limit;
  const page = items.slice(0, limit);
  const last = page.at(-1);
  return c.json(
    {
      success: true as const,
      data: page.map(present),
      pagination: { cursor: hasMore && last ? encodeCursor(last) : null, hasMore, limit },
      meta: responseMeta(c),
    },
    200,
  );
}
