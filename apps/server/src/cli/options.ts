import { InvalidArgumentError } from 'commander';
import { SCOPES, WEBHOOK_EVENT_TYPES, type Scope, type WebhookEventType } from '@signet/contract';
import { z } from 'zod';

/** `--scopes a,b`: known scopes only. */
export function parseScopes(value: string): Scope[] {
  const scopes = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`unknown scope ${unknown.join(', ') || '(none given)'}; use ${SCOPES.join(', ')}`);
  }
  return [...new Set(scopes)] as Scope[];
}

/** `--events a,b`: webhook event types (`all`: every one). */
export function parseWebhookEvents(value: string): WebhookEventType[] {
  if (value.trim() === 'all') return [...WEBHOOK_EVENT_TYPES];
  const events = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = events.filter((s) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(s));
  if (events.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`unknown event ${unknown.join(', ') || '(none given)'}; use all or ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  return [...new Set(events)] as WebhookEventType[];
}

const IsoTimeSchema = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

/**
 * `--expires-at ISO`: a real calendar date (`2030-01-31`, midnight UTC) or a time with its zone
 * (`2030-01-31T12:00:00Z`, `…+02:00`), normalised to UTC. A time without a zone is refused rather than read in
 * the local zone of whoever runs the command.
 */
export function parseIsoTime(value: string): string {
  if (!IsoTimeSchema.safeParse(value).success) {
    throw new InvalidArgumentError(`not an ISO 8601 time with a zone, or a date: ${value} (e.g. 2030-01-31T00:00:00Z)`);
  }
  return new Date(value).toISOString();
}

const ORIGIN_SHAPE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@\s]+\/?$/;

/** `--origins o1,o2`: each an http(s) `scheme://host[:port]` with no path, normalised as browsers send it. */
export function parseOrigins(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((origin) => {
      const url = ORIGIN_SHAPE.test(origin) ? URL.parse(origin) : null;
      if (!url || !/^https?:$/.test(url.protocol)) {
        throw new InvalidArgumentError(`not an origin: ${origin} (expected http(s)://host[:port], no path)`);
      }
      return url.origin;
    });
}

/** A whole number in [min, max]. */
export function parseWholeNumber(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    return n;
  };
}
