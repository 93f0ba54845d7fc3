/**
 * Writes `src/answer-checks.generated.ts`: the JSON Schemas of the API's answers, made from the contract's zod
 * schemas with `z.toJSONSchema`, for `answer-check.ts` to check answers in a browser without shipping zod (about
 * 100 KB gzipped, as much as pdf.js). The zod schemas stay the one source: `answer-checks.test.ts` fails when the
 * generated file is not what this script makes of them today, and when the check and zod disagree on a sample.
 *
 * Run it after changing a schema an endpoint answers with: `pnpm exec tsx packages/contract/scripts/generate-answer-checks.ts`.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CHECKED_KEYWORDS } from '../src/answer-check.js';
import { endpoints, type Endpoint } from '../src/endpoints.js';
import { ErrorEnvelopeSchema } from '../src/schemas/envelope.js';
import { FieldValueSchema } from '../src/schemas/field.js';
import { PageInfoSchema, RenderContextSchema } from '../src/schemas/submission.js';
import { TimestampSchema } from '../src/schemas/timestamp.js';

/** Parts of a request the client checks before sending it (`buildSubmission`), besides the answers. */
const VALUES = { timestamp: TimestampSchema, fieldValue: FieldValueSchema, renderContext: RenderContextSchema, pageInfo: PageInfoSchema };

export const GENERATED_FILE = fileURLToPath(new URL('../src/answer-checks.generated.ts', import.meta.url));

/** The JSON bodies an endpoint answers with: its 2xx answer and, if it has one, its own refusal (validate-key's 401). */
function answersOf(endpoint: Endpoint): { answer?: z.ZodType; refusal?: z.ZodType } {
  const bodies = (refusal: boolean) =>
    Object.entries(endpoint.responses).flatMap(([status, { content }]) =>
      content?.mediaType === 'application/json' && Number(status) >= 300 === refusal ? [content.schema] : [],
    );
  const [answers, refusals] = [[...new Set(bodies(false))], [...new Set(bodies(true))]];
  const answer = answers.length === 0 ? undefined : answers.length === 1 ? answers[0] : z.union(answers);
  return { ...(answer ? { answer } : {}), ...(refusals[0] ? { refusal: refusals[0] } : {}) };
}

/**
 * The schema without what a check does not read (words for people, `additionalProperties: false`: a client lets
 * an answer's unknown members through, so that a newer server may add some; requests are strict on the server);
 * throws on a keyword `answer-check.ts` does not check, so that no rule of a zod schema is silently dropped.
 */
function trimmed(node: unknown, at: string): unknown {
  if (Array.isArray(node)) return node.map((item, index) => trimmed(item, `${at}/${index}`));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'description' || keyword === 'format' || (keyword === 'additionalProperties' && value === false)) continue;
    if (!(CHECKED_KEYWORDS as readonly string[]).includes(keyword)) throw new Error(`${at}: answer-check.ts does not check "${keyword}"`);
    out[keyword] =
      keyword === 'properties'
        ? Object.fromEntries(Object.entries(value as object).map(([name, member]) => [name, trimmed(member, `${at}/${name}`)]))
        : keyword === 'const' || keyword === 'enum'
          ? value
          : trimmed(value, `${at}/${keyword}`);
  }
  return out;
}

/**
 * Whether a signer's browser calls the endpoint (those a session key may call, and the document token's): its checks
 * are in every client bundle, the viewer's included.
 */
function isSdk(endpoint: Endpoint): boolean {
  return endpoint.access.by === 'document-token' || (endpoint.access.by === 'key' && endpoint.access.sessions === true);
}

/** Whether a builder session key may call the endpoint: its checks are in the builder's bundle, not the viewer's. */
function isBuilder(endpoint: Endpoint): boolean {
  return endpoint.access.by === 'key' && endpoint.access.builders !== undefined;
}

/**
 * The definitions, the answer schemas and the route table of a group of endpoints (with `extra` members), as
 * source lines. One JSON Schema document per group, so that a schema several answers share (FieldDefinition…) is
 * written once in it.
 */
function group(entries: [string, Endpoint][], extra: Record<string, z.ZodType>, indent: string) {
  const members: Record<string, z.ZodType> = { ...extra };
  const routes: string[] = [];
  for (const [name, endpoint] of entries) {
    const { answer, refusal } = answersOf(endpoint);
    if (answer) members[`${name}Answer`] = answer;
    if (refusal) members[`${name}Refusal`] = refusal;
    const checks = [answer ? `, answer: check(${name}Answer)` : '', refusal ? `, refusal: check(${name}Refusal)` : ''].join('');
    routes.push(`${indent}  ${name}: { method: '${endpoint.method}', path: '${endpoint.path}'${checks} },`);
  }
  const { definitions = {}, properties } = z.toJSONSchema(z.object(members), { io: 'output', target: 'draft-07', reused: 'ref' }) as unknown as {
    definitions: Record<string, unknown>;
    properties: Record<string, unknown>;
  };
  const json = (value: unknown, at: string) => JSON.stringify(trimmed(value, at));
  return {
    definitions: Object.entries(definitions).map(([name, schema]) => `${indent}  ${JSON.stringify(name)}: ${json(schema, name)},`).join('\n'),
    schemas: Object.entries(properties).map(([name, schema]) => `${indent}const ${name} = ${json(schema, name)};`).join('\n'),
    routes: routes.join('\n'),
  };
}

/** The generated module's source. */
export function generateAnswerChecks(): string {
  const all = Object.entries(endpoints) as [string, Endpoint][];
  const sdk = group(all.filter(([, endpoint]) => isSdk(endpoint)), { errorEnvelope: ErrorEnvelopeSchema, ...VALUES }, '');
  const builder = group(all.filter(([, endpoint]) => !isSdk(endpoint) && isBuilder(endpoint)), {}, '  ');
  const management = group(all.filter(([, endpoint]) => !isSdk(endpoint) && !isBuilder(endpoint)), {}, '  ');
  return `// Generated by packages/contract/scripts/generate-answer-checks.ts from the contract's zod schemas: do not edit.
// Regenerate with \`pnpm exec tsx packages/contract/scripts/generate-answer-checks.ts\`.
import { checkAnswer, type JsonSchema } from './answer-check.js';

const definitions: Record<string, JsonSchema> = {
${sdk.definitions}
};

const check = (schema: JsonSchema) => checkAnswer<unknown>(schema, definitions);
${sdk.schemas}

export const checkErrorEnvelope = check(errorEnvelope);
${Object.keys(VALUES).map((name) => `export const check${name[0]!.toUpperCase()}${name.slice(1)} = check(${name});`).join('\n')}

/** The endpoints a signer's browser calls (a session key's, the document token's). */
export const sdkEndpoints = {
${sdk.routes}
} as const;

/** The endpoints an author's browser calls with a builder session key: made when asked for, as the management ones. */
export function builderEndpoints() {
  const definitions: Record<string, JsonSchema> = {
${builder.definitions}
  };

  const check = (schema: JsonSchema) => checkAnswer<unknown>(schema, definitions);
${builder.schemas}

  return {
${builder.routes}
  } as const;
}

/** The management endpoints (sk keys): made when asked for, so that a bundle that never asks leaves them out. */
export function managementEndpoints() {
  const definitions: Record<string, JsonSchema> = {
${management.definitions}
  };

  const check = (schema: JsonSchema) => checkAnswer<unknown>(schema, definitions);
${management.schemas}

  return {
${management.routes}
  } as const;
}
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(GENERATED_FILE, generateAnswerChecks());
  console.log(`wrote ${GENERATED_FILE}`);
}
