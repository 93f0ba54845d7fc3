import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { MAX_JSON_DEPTH, parseJsonText } from './json-body.js';

/** The ApiError `parseJsonText` throws for `text`. */
function refusal(text: string): ApiError {
  try {
    parseJsonText(text);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`accepted: ${text.slice(0, 80)}`);
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('parseJsonText', () => {
  it('parses JSON as JSON.parse does', () => {
    const text = '{"a":[1,2.5,-0,1e21,"é\\u2028",null,true,false,{}],"b":{"c":"\\"x\\""}, "__proto__": 1}';
    expect(parseJsonText(text)).toEqual(JSON.parse(text));
    expect(parseJsonText(' \n\t"text" ')).toBe('text');
  });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses one more, whatever the depth`, () => {
    expect(parseJsonText(nested(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
    for (const depth of [MAX_JSON_DEPTH + 1, 10_000, 1_000_000]) {
      const error = refusal(`{"extra":${nested(depth)}}`);
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
      expect(error.details).toEqual({ field: 'body', reason: `arrays and objects may nest at most ${MAX_JSON_DEPTH} levels deep` });
    }
    expect(refusal(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`).details?.field).toBe('body');
  });

  it('refuses a member named twice in one object, at any depth, naming it and where it is', () => {
    expect(refusal('{"a":1,"a":1}').details).toEqual({ field: 'a', reason: 'the member "a" appears more than once' });
    expect(refusal('{"fields":[{"id":"x"},{"value":{"content":"a","content":"b"}}]}').details).toEqual({
      field: 'fields[1].value.content',
      reason: 'the member "content" appears more than once',
    });
    // Escapes name the same member: "\u0061" is "a".
    expect(refusal('{"x":{"a":1,"\\u0061":2}}').details?.reason).toBe('the member "a" appears more than once');
    expect(refusal('[{"a":1},{"b":1,"c":{},"b":2}]').details?.field).toBe('[1].b');
    // The same name in different objects is fine.
    expect(parseJsonText('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}')).toBeTruthy();
  });

  it('refuses a number beyond a double, which JSON.parse makes Infinity and canonical JSON cannot write', () => {
    expect(refusal('{"a":{"b":[1,-1e999]}}').details).toEqual({ field: 'a.b[1]', reason: 'is a number beyond the range of a double (I-JSON, RFC 7493)' });
    expect(refusal(`{"a":${'9'.repeat(400)}}`).details?.field).toBe('a');
    expect(refusal('1E400').details?.field).toBe('body');
    expect(parseJsonText('[1e308,-1.5e-999,1E+2,0.5,-0,12345678901234567890]')).toEqual([1e308, -0, 100, 0.5, -0, 12345678901234567890]);
  });

  it('is not misled by brackets, quotes, commas and backslashes inside strings', () => {
    const text = JSON.stringify({ 'a"': '}{[,"a":', b: '\\', 'a\\': `${'['.repeat(1000)}"`, c: ['"', '\\"', { a: ',"a":1' }] });
    expect(parseJsonText(text)).toEqual(JSON.parse(text));
  });

  it('refuses what is not JSON', () => {
    const texts = ['', '{"a":', '{"a":1,}', '[1,]', '{a:1}', "{'a':1}", '{"a":1} // c', '01', 'NaN', '"\u0001"', '\uFEFF{}', '{"a":1}}'];
    for (const text of texts) {
      expect(refusal(text).details, JSON.stringify(text)).toEqual({ field: 'body', reason: 'the body is not valid JSON' });
    }
  });
});
