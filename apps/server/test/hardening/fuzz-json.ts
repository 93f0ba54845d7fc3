import fc from 'fast-check';
import { chance, pick, randomBytes, uniform, weighted, type Draw } from './fuzz-draw.js';

/**
 * JSON text put into a document as it is: what `JSON.stringify` cannot write (numbers past a double, duplicate
 * member names) or should not build (nesting deeper than its own stack).
 */
export class RawJson {
  constructor(
    readonly text: string,
    /** What it is, for a failure report. */
    readonly label: string,
  ) {}
}

/** A JSON document under construction: plain values, with raw text where needed. */
export type JsonTree = null | boolean | number | string | RawJson | JsonTree[] | { [member: string]: JsonTree };
type JsonObject = { [member: string]: JsonTree };

const isObject = (tree: JsonTree): tree is JsonObject =>
  tree !== null && typeof tree === 'object' && !Array.isArray(tree) && !(tree instanceof RawJson);

/** Sets a member as an own property, so that `__proto__` is a member like any other (not the prototype). */
export function setMember(object: JsonObject, name: string, value: JsonTree): void {
  Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
}

/** The JSON text of `tree` (raw parts as they are; NaN and ±Infinity as `null`, as JSON.stringify writes them). */
export function serialize(tree: JsonTree): string {
  if (tree instanceof RawJson) return tree.text;
  if (Array.isArray(tree)) return `[${tree.map(serialize).join(',')}]`;
  if (isObject(tree)) return `{${Object.keys(tree).map((name) => `${JSON.stringify(name)}:${serialize(tree[name]!)}`).join(',')}}`;
  return JSON.stringify(tree);
}

/** A deep copy of a JSON value or tree. */
export function cloneTree(tree: JsonTree): JsonTree {
  if (Array.isArray(tree)) return tree.map(cloneTree);
  if (!isObject(tree)) return tree;
  const copy: JsonObject = {};
  for (const name of Object.keys(tree)) setMember(copy, name, cloneTree(tree[name]!));
  return copy;
}

/** A short description of a value for a failure report. */
export function label(tree: JsonTree): string {
  if (tree instanceof RawJson) return tree.label;
  if (typeof tree === 'string') return tree.length > 24 ? `string(${tree.length}) ${JSON.stringify(tree.slice(0, 16))}…` : JSON.stringify(tree);
  if (Array.isArray(tree)) return `array(${tree.length})`;
  if (isObject(tree)) return `object(${Object.keys(tree).slice(0, 4).join(',')})`;
  return String(tree);
}

/** Depths around the limits a parser might choose, and far past them. */
export const NESTING_DEPTHS = [20, 63, 64, 65, 100, 127, 128, 129, 256, 1000, 5000, 10_000, 100_000] as const;

/**
 * `depth` levels of nesting as JSON text: arrays, objects or both alternating.
 * @example nested(3, 'array').text // '[[[]]]'
 */
export function nested(depth: number, kind: 'array' | 'object' | 'mixed'): RawJson {
  const text =
    kind === 'array'
      ? '['.repeat(depth) + ']'.repeat(depth)
      : kind === 'object'
        ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
        : '[{"a":'.repeat(depth >> 1) + '[]' + '}]'.repeat(depth >> 1);
  return new RawJson(text, `${kind} nested ${depth} deep`);
}

const NUMBERS = [
  0, -0, 1, -1, 0.5, 1e-7, 5e-324, -5e-324, 1e21, 1e308, -1e308, Number.MAX_VALUE, 2 ** 31, 2 ** 32, 2 ** 53, -(2 ** 53),
  90, 180, 270, 45, -90, 1.0000001, 0.9999999, 4096, 4097, 500, 501, 10_000, 10_001, NaN,
];

/** Valid JSON numbers that no double holds exactly, or that overflow to ±Infinity or underflow to 0. */
const RAW_NUMBERS = ['1e400', '-1e400', '1' + '0'.repeat(400), '0.' + '0'.repeat(400) + '1', '-0', '-0.0', '1E+2', '1e-400', '123456789012345678901234567890', '0e0'];

const STRINGS = [
  '', ' ', '\t\n', 'NaN', 'Infinity', '-Infinity', 'null', 'undefined', 'true', '0', '-0', '1e309', '0x10', '١٢٣',
  '\u0000', '\u0000'.repeat(16), '\u202eevil.pdf', '\ufeff', '\ud800', '\udfff', '\udfff\ud800', '👩‍👩‍👧‍👦', 'e\u0301'.repeat(300),
  'İı', 'ß', '𝕏', '\u2028\u2029', "' OR 1=1 --", '"; DROP TABLE submissions; --', '<script>alert(1)</script>',
  '../../../../etc/passwd', '${jndi:ldap://x/a}', '%00', '%s%n%x', '{{7*7}}', 'doc_', `doc_${'A'.repeat(24)}`,
  `sub_${'A'.repeat(24)}`, `doc_${'A'.repeat(20)}\u0000`, `doc_${'Z'.repeat(5000)}`, '2026-02-30', '2026-13-01',
  '0000-00-00', '9999-12-31', '+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', '2026-01-01T00:00:00Z',
  '2026-01-01T00:00:00+99:99', '1970-01-01T00:00:00.000Z', 'data:image/png;base64,', 'data:image/png;base64,====',
  `data:image/png;base64,${'iVBORw0KGgo'.repeat(3)}`, 'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'text', 'signature', 'initials', 'date', 'checkbox',
  'number', 'email', 'phone', 'textarea', 'select', 'radio', 'image', 'NaN', '1e400', '-0', 'a@b.c', '+1 (555) 010-0199',
  'data:image/jpeg;base64,/9j/', 'data:image/jpeg;base64,/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsj/9k=',
  '(a+)+$', '[', '^(?:',
];

/** Member names that mean something to JavaScript objects, or that almost match the payload's own. */
export const MEMBER_NAMES = [
  '__proto__', 'constructor', 'prototype', 'toString', 'toJSON', 'valueOf', 'hasOwnProperty', '__defineGetter__',
  'then', 'length', '', ' ', 'documentId ', 'DocumentId', 'checksum', 'fields', 'pages', 'id', 'type', 'value',
  '\u0000', '\ud800', 'é', 'a'.repeat(10_000),
];

const STRING_SIZES = [256, 1000, 10_000, 10_001, 65_536, 1_000_000] as const;

/** A string of a drawn kind: an edge case, arbitrary code units, graphemes, or something long. */
export function hostileString(g: Draw): string {
  return weighted(g, [
    [6, () => pick(g, STRINGS)],
    [2, () => g(fc.string, { unit: 'binary', maxLength: 40 })],
    [2, () => g(fc.string, { unit: 'grapheme', maxLength: 40 })],
    [1, () => g(fc.string, { unit: fc.constantFrom('\ud800', '\udc00', 'a', '\u0000', '"', '\\'), maxLength: 40 })],
    [1, () => pick(g, ['x', 'é', '😀', '\u0000', ' ']).repeat(pick(g, STRING_SIZES))],
  ]);
}

/**
 * A value to put where the payload expects something else: edge numbers and strings, random JSON, empty and huge
 * containers, nesting deep enough to break recursive code, members named like prototype keys, duplicate members.
 */
export function hostileValue(g: Draw): JsonTree {
  return weighted<JsonTree>(g, [
    [12, () => pick(g, NUMBERS)],
    [3, () => g(fc.double)],
    [5, () => new RawJson(pick(g, RAW_NUMBERS), 'raw number')],
    [22, hostileString],
    [10, () => g(fc.jsonValue, { maxDepth: 3 }) as JsonTree],
    [6, () => cloneTree(pick<JsonTree>(g, [null, true, false, [], {}, [null], [[]], [{}], { '': null }]))],
    [4, () => nested(pick(g, NESTING_DEPTHS), pick(g, ['array', 'object', 'mixed'] as const))],
    [2, () => new RawJson(`[${'0,'.repeat(pick(g, [501, 10_001, 100_000]))}0]`, 'wide array')],
    [1, () => new RawJson(`{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":0`).join(',')}}`, 'object of 20000 members')],
    [4, () => {
      const object: JsonObject = {};
      setMember(object, pick(g, MEMBER_NAMES.slice(0, 8)), chance(g, 0.5) ? { polluted: true, isAdmin: true } : hostileString(g));
      return object;
    }],
    [3, () => duplicateMember(g, { a: 1 })],
  ]);
}

/** `object` with one of its members (or a new one) written twice, the two values different. */
export function duplicateMember(g: Draw, object: JsonObject): RawJson {
  const names = Object.keys(object);
  const name = names.length > 0 && chance(g, 0.8) ? pick(g, names) : pick(g, MEMBER_NAMES.slice(0, 8));
  const inner = serialize(object);
  const first = `${JSON.stringify(name)}:${serialize(hostileValue(g))}`;
  const text = chance(g, 0.5) ? `{${first}${inner === '{}' ? '' : ','}${inner.slice(1)}` : `${inner.slice(0, -1)}${inner === '{}' ? '' : ','}${first}}`;
  return new RawJson(text, `object with ${JSON.stringify(name.slice(0, 20))} twice`);
}

interface Location {
  path: string;
  value: JsonTree;
  set(value: JsonTree): void;
  remove?(): void;
}

function locationsOf(holder: { root: JsonTree }): Location[] {
  const found: Location[] = [{ path: '$', value: holder.root, set: (value) => (holder.root = value) }];
  const walk = (tree: JsonTree, path: string) => {
    if (Array.isArray(tree)) {
      tree.forEach((item, index) => {
        const at = `${path}[${index}]`;
        found.push({ path: at, value: item, set: (value) => (tree[index] = value), remove: () => tree.splice(index, 1) });
        walk(item, at);
      });
    } else if (isObject(tree)) {
      for (const name of Object.keys(tree)) {
        const at = path === '$' ? name : `${path}.${name}`;
        found.push({ path: at, value: tree[name]!, set: (value) => setMember(tree, name, value), remove: () => delete tree[name] });
        walk(tree[name]!, at);
      }
    }
  };
  walk(holder.root, '$');
  return found;
}

function tweakNumber(g: Draw, n: number): JsonTree {
  return pick<JsonTree>(g, [n + 0.0005, n + 0.002, n - 0.002, -n, n * 1e6, n / 3, Math.round(n) + 0.5, 0, -0, n + 1, n - 1, String(n), new RawJson(`${n}e400`, 'overflowing number')]);
}

function tweakString(g: Draw, s: string): JsonTree {
  return weighted<JsonTree>(g, [
    [2, () => s + hostileString(g)],
    [1, () => s.slice(0, uniform(g, s.length))],
    [1, () => s.toUpperCase()],
    [1, () => ` ${s} `],
    [1, () => s.repeat(pick(g, [2, 100, 5000]))],
    [1, () => s.normalize('NFD') + '\u0301'],
    [1, () => s.split('').reverse().join('')],
    [1, () => (Number.isNaN(Number(s)) ? s.length : Number(s))],
  ]);
}

/** Another type for the same place: a number as its text, a string as a number, a container inside out. */
function swapType(g: Draw, tree: JsonTree): JsonTree {
  if (typeof tree === 'number') return pick<JsonTree>(g, [String(tree), tree > 0, [tree], { value: tree }]);
  if (typeof tree === 'string') return pick<JsonTree>(g, [tree.length, tree !== '', [tree], { content: tree }, null]);
  if (typeof tree === 'boolean') return pick<JsonTree>(g, [String(tree), Number(tree), [tree]]);
  if (Array.isArray(tree)) return pick<JsonTree>(g, [Object.fromEntries(tree.map((item, i) => [String(i), item])), tree.length, serialize(tree)]);
  if (isObject(tree)) return pick<JsonTree>(g, [Object.values(tree), serialize(tree), Object.keys(tree)]);
  return pick<JsonTree>(g, [0, '', false, [], {}]);
}

/**
 * Applies `count` random mutations to a copy of `tree`, each described in `recipe`: replace a value (by a hostile
 * one, another type, a nudged number or string), remove or add a member or item, write a member twice, grow or
 * empty an array.
 * @example const mutated = mutateTree(g, payload, 2, recipe)
 */
export function mutateTree(g: Draw, tree: JsonTree, count: number, recipe: string[]): JsonTree {
  const holder = { root: cloneTree(tree) };
  for (let step = 0; step < count; step++) {
    const at = pick(g, locationsOf(holder));
    const node = at.value;
    const options: Array<readonly [number, (g: Draw) => void]> = [
      [40, () => { const value = hostileValue(g); at.set(value); recipe.push(`set ${at.path} = ${label(value)}`); }],
      [10, () => { const value = swapType(g, node); at.set(value); recipe.push(`retype ${at.path} to ${label(value)}`); }],
    ];
    if (at.remove) options.push([15, () => { at.remove!(); recipe.push(`remove ${at.path}`); }]);
    if (typeof node === 'number') options.push([15, () => { const value = tweakNumber(g, node); at.set(value); recipe.push(`nudge ${at.path} to ${label(value)}`); }]);
    if (typeof node === 'string') options.push([15, () => { const value = tweakString(g, node); at.set(value); recipe.push(`change ${at.path} to ${label(value)}`); }]);
    if (isObject(node)) {
      options.push([15, () => {
        const name = chance(g, 0.6) ? pick(g, MEMBER_NAMES) : g(fc.string, { maxLength: 12 });
        const value = hostileValue(g);
        setMember(node, name, value);
        recipe.push(`add ${at.path}.${JSON.stringify(name.slice(0, 20))} = ${label(value)}`);
      }]);
      options.push([8, () => { const value = duplicateMember(g, node); at.set(value); recipe.push(`at ${at.path}: ${value.label}`); }]);
    }
    if (Array.isArray(node) && node.length > 0) {
      options.push([6, () => {
        const times = pick(g, [2, 50, 501, 10_001]);
        const item = node[uniform(g, node.length - 1)]!;
        at.set(new RawJson(`[${Array.from({ length: times }, () => serialize(item)).join(',')}]`, `array of ${times} copies`));
        recipe.push(`repeat an item of ${at.path} ${times} times`);
      }]);
      options.push([3, () => { at.set([]); recipe.push(`empty ${at.path}`); }]);
      options.push([3, () => { at.set([...node].reverse()); recipe.push(`reverse ${at.path}`); }]);
    }
    weighted(g, options);
  }
  return holder.root;
}

const JUNK = ['NaN', 'Infinity', '-Infinity', 'undefined', '01', '+1', '.5', '1.', '0x1F', "'x'", 'True', 'nul', ',', '}', ']', '"', '\\', '\\x41', '\\u12', '/* c */', '\u0000', ':', '{', '['];
const BAD_UTF8 = [[0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xfe, 0xff]];

/** `text` as the UTF-8 bytes a body carries. */
export const utf8 = (text: string) => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]) => Uint8Array.from(Buffer.concat(parts));

/**
 * The UTF-8 bytes of `text` after one mutation at the text or byte level, described in `recipe`: cut short, a
 * slice removed, junk or invalid UTF-8 inserted, a byte flipped, a BOM or UTF-16, padding, trailing garbage, a
 * top-level member written twice.
 */
export function mutateText(g: Draw, text: string, recipe: string[]): Uint8Array {
  const bytes = utf8(text);
  const at = uniform(g, bytes.length);
  return weighted<Uint8Array>(g, [
    [6, () => { recipe.push(`cut at byte ${at} of ${bytes.length}`); return bytes.slice(0, at); }],
    [2, () => { const end = Math.min(bytes.length, at + 1 + uniform(g, 64)); recipe.push(`bytes ${at}..${end} removed`); return concat(bytes.slice(0, at), bytes.slice(end)); }],
    [4, () => { const junk = pick(g, JUNK); recipe.push(`${JSON.stringify(junk)} inserted at byte ${at}`); return concat(bytes.slice(0, at), utf8(junk), bytes.slice(at)); }],
    [3, () => { const bad = Uint8Array.from(pick(g, BAD_UTF8)); recipe.push(`invalid UTF-8 ${Buffer.from(bad).toString('hex')} at byte ${at}`); return concat(bytes.slice(0, at), bad, bytes.slice(at)); }],
    [3, () => { const copy = bytes.slice(); const i = Math.min(at, copy.length - 1); if (i >= 0) copy[i] = uniform(g, 255); recipe.push(`byte ${i} replaced`); return copy; }],
    [1, () => { recipe.push('UTF-8 BOM first'); return concat(Uint8Array.from([0xef, 0xbb, 0xbf]), bytes); }],
    [1, () => { recipe.push('UTF-16LE'); return Uint8Array.from(Buffer.from(`${chance(g, 0.5) ? '\ufeff' : ''}${text}`, 'utf16le')); }],
    [1, () => { const n = pick(g, [1, 1000, 200_000]); recipe.push(`${n} spaces around`); return utf8(' '.repeat(n) + text + '\n'.repeat(n)); }],
    [2, () => { const tail = pick(g, ['x', '}', ']', '{}', text, '\u0000', ',']); recipe.push(`${JSON.stringify(tail.slice(0, 8))} after the document`); return concat(bytes, utf8(tail)); }],
    [3, () => {
      const name = pick(g, ['documentId', 'checksum', 'fields', 'pages', 'renderContext', 'submittedAt', '__proto__', 'constructor']);
      const value = serialize(hostileValue(g));
      recipe.push(`top-level ${JSON.stringify(name)} written first as well`);
      return text.startsWith('{') ? utf8(`{${JSON.stringify(name)}:${value},${text.slice(1)}`) : bytes;
    }],
    [1, () => { recipe.push('random bytes instead'); return randomBytes(g, uniform(g, 2048)); }],
  ]);
}
