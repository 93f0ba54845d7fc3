import { InvalidArgumentError } from 'commander';
import { SCOPES, type Scope } from '@signet/contract';

/** `--scopes a,b`: known scopes only. */
export function parseScopes(value: string): Scope[] {
  const scopes = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`unknown scope ${unknown.join(', ') || '(none given)'}; use ${SCOPES.join(', ')}`);
  }
  return [...new Set(scopes)] as Scope[];
}

/** `--expires-at ISO`: a valid ISO 8601 time, normalised to UTC. */
export function parseIsoTime(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError(`not an ISO 8601 time: ${value}`);
  }
  return new Date(value).toISOString();
}

/** `--origins o1,o2`: each `scheme://host[:port]`, no path. */
export function parseOrigins(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((origin) => {
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        throw new InvalidArgumentError(`not an origin: ${origin} (expected scheme://host[:port])`);
      }
      if (url.origin !== origin.replace(/\/$/, '') || !/^https?:$/.test(url.protocol)) {
        throw new InvalidArgumentError(`not an origin: ${origin} (expected scheme://host[:port], no path)`);
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
