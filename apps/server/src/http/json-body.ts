import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError, tooLarge, validationError } from '../errors.js';
import { requestHeader } from './request-header.js';
import { issuePath } from './validation.js';

/**
 * How deeply arrays and objects may nest in a JSON body. A submission payload needs 4 levels; the limit leaves room
 * to grow while keeping every recursive step after the parse (zod, the canonical JSON of the checksum) far from the
 * stack's end. It is checked before zod, which refuses unknown members, so a deep one is refused for its depth.
 */
export const MAX_JSON_DEPTH = 64;

/** `application/json`, with no parameter but an optional UTF-8 charset (RFC 8259: JSON on the wire is UTF-8). */
const JSON_MEDIA_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*(?:utf-8|"utf-8")\s*)?$/i;

/** The 415 of a body that is not declared as JSON (docs/api.md, "Requests"). */
function unsupportedContentType(reason: string): ApiError {
  return new ApiError('VALIDATION_ERROR', `Unsupported Content-Type: ${reason}`, {
    status: 415,
    details: { field: 'Content-Type', reason },
  });
}

/**
 * Throws the 415 `VALIDATION_ERROR` unless the request declares a JSON body: `application/json`, optionally with
 * `charset=utf-8`.
 * @example requireJsonContentType(c) // before the body is read
 */
export function requireJsonContentType(c: Context): void {
  const declared = requestHeader(c, 'content-type');
  if (declared === undefined) throw unsupportedContentType('missing; send Content-Type: application/json');
  const mediaType = declared.split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw unsupportedContentType(`${mediaType || 'an empty type'} is not accepted; send application/json`);
  }
  if (!JSON_MEDIA_TYPE.test(declared.trim())) {
    throw unsupportedContentType('the only parameter accepted is charset=utf-8 (JSON is UTF-8)');
  }
}

/** An open array (the index of its current element) or object (its member names so far and the current one). */
type Container = { index: number } | { names: Set<string>; member: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const PLUS = 0x2b;
const DOT = 0x2e;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

const notJson = () => validationError('body', 'the body is not valid JSON');

/** `details.field` of the value being scanned: the payload path users know (`fields[2].value.content`). */
function pathAt(containers: readonly Container[]): string {
  return issuePath(containers.map((container) => ('index' in container ? container.index : container.member))) || 'body';
}

const isDigit = (code: number) => code >= DIGIT_0 && code <= DIGIT_9;
const isExponent = (code: number) => code === LOWER_E || code === UPPER_E;

/** The position just past the number that starts at `start`. */
function numberEnd(text: string, start: number): number {
  let end = start + 1;
  for (; end < text.length; end++) {
    const code = text.charCodeAt(end);
    if (!(isDigit(code) || isExponent(code) || code === DOT || code === PLUS || code === MINUS)) break;
  }
  return end;
}

/**
 * Whether the number text at `start`..`end` lies beyond a double: `JSON.parse` makes it ±Infinity, which canonical
 * JSON (RFC 8785, on I-JSON) cannot write. Only an exponent or more than 308 digits can get there.
 */
function beyondDouble(text: string, start: number, end: number): boolean {
  let exponent = false;
  for (let at = start; at < end && !exponent; at++) exponent = isExponent(text.charCodeAt(at));
  return (exponent || end - start > 308) && !Number.isFinite(Number(text.slice(start, end)));
}

/** The position of the quote that closes the string opened at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  let end = open;
  for (;;) {
    end = text.indexOf('"', end + 1);
    if (end === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
}

/**
 * One pass over the text, with no recursion: throws the 400 as soon as nesting passes `maxDepth`, and returns the
 * 400 of the first member named twice in one object or the first number beyond a double (or null). It only tracks
 * brackets, braces, commas and where strings and numbers start and end; `JSON.parse` remains the judge of the
 * syntax, so on a text that is not JSON its finding is only used once `JSON.parse` has accepted the text.
 */
function scanStructure(text: string, maxDepth: number): ApiError | null {
  const containers: Container[] = [];
  let problem: ApiError | null = null;
  let expectingName = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      const end = stringEnd(text, at);
      if (end === -1) throw notJson();
      const object = containers[containers.length - 1];
      if (expectingName && object && 'names' in object) {
        const raw = text.slice(at + 1, end);
        let name = raw;
        if (raw.includes('\\')) {
          try {
            name = JSON.parse(text.slice(at, end + 1)) as string;
          } catch {
            throw notJson();
          }
        }
        object.member = name;
        if (object.names.has(name)) {
          problem ??= validationError(pathAt(containers), `the member ${JSON.stringify(name)} appears more than once`);
        }
        object.names.add(name);
      }
      expectingName = false;
      at = end;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (containers.length === maxDepth) {
        throw validationError('body', `arrays and objects may nest at most ${maxDepth} levels deep`);
      }
      containers.push(code === OPEN_BRACE ? { names: new Set(), member: '' } : { index: 0 });
      expectingName = code === OPEN_BRACE;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      containers.pop();
      expectingName = false;
    } else if (code === COMMA) {
      const container = containers[containers.length - 1];
      if (container && 'index' in container) container.index++;
      expectingName = container !== undefined && 'names' in container;
    } else if (code === MINUS || isDigit(code)) {
      const end = numberEnd(text, at);
      if (beyondDouble(text, at, end)) {
        problem ??= validationError(pathAt(containers), 'is a number beyond the range of a double (I-JSON, RFC 7493)');
      }
      at = end - 1;
    }
  }
  return problem;
}

/**
 * Parses JSON text strictly: a 400 `VALIDATION_ERROR` for text that is not JSON, that nests arrays and objects
 * deeper than `maxDepth`, that names a member twice in one object (two parsers could read such a text
 * differently: `JSON.parse` keeps the last), or that holds a number beyond a double (`1e999`). The nesting is measured before anything recursive runs (zod and the
 * canonical JSON of the checksum, after this, recurse); the pass costs about what `JSON.parse` does, or less.
 * @example parseJsonText('{"a":1,"a":2}') // throws: details { field: 'a', reason: 'the member "a" appears more than once' }
 */
export function parseJsonText(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const problem = scanStructure(text, maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notJson();
  }
  if (problem) throw problem;
  return value;
}

/**
 * Reads a JSON request body: the `Content-Type` checked first (415), then the text read and parsed by
 * {@link parseJsonText} (400). The text is returned as sent, for checksums and records. A size limit belongs
 * before this, in the route's middleware.
 * @example const { text, value } = await readJsonBody(c)
 */
export async function readJsonBody(c: Context): Promise<{ text: string; value: unknown }> {
  requireJsonContentType(c);
  const text = await c.req.text();
  return { text, value: parseJsonText(text) };
}

/**
 * A JSON body that must be an object (a management request's): the 400 naming `body` otherwise.
 * @example const body = parseOrThrow(schema, await readJsonObject(c));
 */
export async function readJsonObject(c: Context): Promise<unknown> {
  const { value } = await readJsonBody(c);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw validationError('body', 'must be a JSON object');
  const nul = nulPath(value);
  if (nul) throw validationError(issuePath(nul) || 'body', 'must not contain the character U+0000 (NUL)');
  return value;
}

/**
 * The path of the first string in `value` that holds a NUL, which a management request's strings are stored as:
 * PostgreSQL's `text` refuses it (a 500) and SQLite cuts the string there (a reason or URL stored shorter than it was
 * answered). Nesting is already bounded by {@link MAX_JSON_DEPTH}.
 */
function nulPath(value: unknown, path: Array<string | number> = []): Array<string | number> | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [name, item] of Object.entries(value)) {
    const found = nulPath(item, [...path, Array.isArray(value) ? Number(name) : name]);
    if (found) return found;
  }
  return undefined;
}

/** The 413 for a small JSON body over `maxSize` bytes, declared or streamed. */
export function smallJsonBodyLimit(maxSize: number) {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw tooLarge('body', maxSize);
    },
  });
}
