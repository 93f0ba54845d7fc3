/**
 * A small checker of the JSON Schemas that `z.toJSONSchema` makes of the contract's answers (see
 * `scripts/generate-answer-checks.ts`): the keywords those schemas use, and no others (the generator refuses a
 * schema with any other keyword). It lets a browser refuse an answer that breaks the contract without shipping zod.
 */

/** Where an answer breaks the contract: a dotted path (`fields.0.width`, empty for the body itself) and why. */
export interface AnswerIssue {
  path: string;
  message: string;
}

/** The check of one answer: the body, typed, when it keeps the contract; what is wrong with it otherwise. */
export type AnswerCheck<T> = (body: unknown) => { success: true; data: T } | { success: false; issues: AnswerIssue[] };

/** A JSON Schema (draft-07) node of the subset below. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** The keywords {@link checkAnswer} understands; `format` and `description` are words for people and pass. */
export const CHECKED_KEYWORDS = [
  'type', 'properties', 'required', 'additionalProperties', 'items', 'const', 'enum', 'anyOf', 'oneOf', 'allOf', '$ref',
  'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'multipleOf',
  'format', 'description',
] as const;

type Definitions = Readonly<Record<string, JsonSchema>>;

const kindOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;

function hasType(value: unknown, type: string): boolean {
  const kind = kindOf(value);
  return kind === type || (type === 'number' && kind === 'integer');
}

const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The first issue of `value` against `schema`, or null when it conforms. */
function firstIssue(schema: JsonSchema, value: unknown, path: string[], definitions: Definitions): AnswerIssue | null {
  const issue = (message: string, at: string[] = path) => ({ path: at.join('.'), message });
  const s = schema as Record<string, never>;
  if (s.$ref) {
    const found = firstIssue(definitions[(s.$ref as string).replace('#/definitions/', '')]!, value, path, definitions);
    if (found) return found;
  }
  if (s.type && ![s.type].flat().some((type: string) => hasType(value, type))) return issue(`expected ${String(s.type)}, received ${kindOf(value)}`);
  if ('const' in s && !sameJson(value, s.const)) return issue(`expected ${JSON.stringify(s.const)}`);
  if (s.enum && !(s.enum as unknown[]).some((option) => sameJson(value, option))) return issue(`expected one of ${JSON.stringify(s.enum)}`);
  for (const part of (s.allOf as JsonSchema[] | undefined) ?? []) {
    const found = firstIssue(part, value, path, definitions);
    if (found) return found;
  }
  for (const [keyword, exactlyOne] of [['anyOf', false], ['oneOf', true]] as const) {
    const options = s[keyword] as JsonSchema[] | undefined;
    if (!options) continue;
    const matches = options.filter((option) => !firstIssue(option, value, path, definitions)).length;
    if (matches === 0 || (exactlyOne && matches > 1)) return issue(`matches ${matches} of the ${keyword} options`);
  }
  if (typeof value === 'string') {
    if (s.pattern && !new RegExp(s.pattern).test(value)) return issue(`does not match ${s.pattern}`);
    if (value.length < (s.minLength ?? 0)) return issue(`shorter than ${s.minLength}`);
    if (value.length > (s.maxLength ?? Infinity)) return issue(`longer than ${s.maxLength}`);
  }
  if (typeof value === 'number') {
    if (value < (s.minimum ?? -Infinity) || value > (s.maximum ?? Infinity)) return issue(`out of [${s.minimum}, ${s.maximum}]`);
    if (s.multipleOf && value % s.multipleOf !== 0) return issue(`must be a multiple of ${s.multipleOf}`);
    if (value <= (s.exclusiveMinimum ?? -Infinity) || value >= (s.exclusiveMaximum ?? Infinity)) return issue('out of range');
  }
  if (Array.isArray(value)) {
    if (value.length < (s.minItems ?? 0) || value.length > (s.maxItems ?? Infinity)) return issue('wrong number of items');
    for (let index = 0; s.items && index < value.length; index++) {
      const found = firstIssue(s.items, value[index], [...path, String(index)], definitions);
      if (found) return found;
    }
  }
  if (kindOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of (s.required as string[] | undefined) ?? []) if (!(name in object)) return issue('required', [...path, name]);
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, member] of Object.entries(object)) {
      // Members the contract does not name are let through: an answer of a newer server may carry members this
      // client does not know. Requests, not answers, are strict (the server refuses an unknown member).
      const memberSchema = properties[name] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : null);
      const found = memberSchema ? firstIssue(memberSchema, member, [...path, name], definitions) : null;
      if (found) return found;
    }
  }
  return null;
}

/**
 * An {@link AnswerCheck} of `schema`, a schema of `answer-checks.generated.ts` whose `$ref`s point into `definitions`.
 * @example checkAnswer<SdkDocument>(schema, definitions)(JSON.parse(text)) // { success: true, data } or { success: false, issues }
 */
export function checkAnswer<T>(schema: JsonSchema, definitions: Definitions): AnswerCheck<T> {
  return (body) => {
    const found = firstIssue(schema, body, [], definitions);
    return found ? { success: false, issues: [found] } : { success: true, data: body as T };
  };
}
