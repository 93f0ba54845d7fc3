import { describe, expect, it } from 'vitest';
import { fieldDefinitionIssues, fieldTextStyle, hasValue, takesFontSize } from './field-rules.js';
import { fieldPattern, fieldValueProblem } from './field-validation.js';
import { FieldDefinitionSchema, type FieldDefinition, type FieldValue } from './schemas/field.js';
import { SUBMISSION_LIMITS } from './submission-limits.js';

const field = (overrides: Partial<FieldDefinition>): FieldDefinition => ({
  id: 'f',
  type: 'text',
  page: 1,
  x: 0.1,
  y: 0.1,
  width: 0.3,
  height: 0.05,
  required: false,
  editable: true,
  label: 'Field',
  ...overrides,
});
const code = (definition: Partial<FieldDefinition>, value: FieldValue) => fieldValueProblem(field(definition), value)?.code ?? null;

describe('fieldValueProblem', () => {
  it('counts text in characters, not UTF-16 units, up to the submission limit and the field\'s maxLength', () => {
    const emoji = '😀'.repeat(SUBMISSION_LIMITS.maxTextLength);
    expect(code({}, { type: 'text', content: emoji })).toBeNull();
    expect(fieldValueProblem(field({}), { type: 'text', content: `${emoji}😀` })).toMatchObject({
      code: 'tooLong',
      member: 'content',
      params: { count: SUBMISSION_LIMITS.maxTextLength },
    });
    expect(code({ validation: { maxLength: 3 } }, { type: 'textarea', content: '😀😀😀' })).toBeNull();
    expect(code({ validation: { maxLength: 3 } }, { type: 'textarea', content: 'a\nbc' })).toBe('tooLong');
    expect(code({ validation: { minLength: 3 } }, { type: 'text', content: 'ab' })).toBe('tooShort');
    // Blank is no value: whether one is needed is `required`'s rule.
    expect(code({ validation: { minLength: 3 } }, { type: 'text', content: '' })).toBeNull();
  });

  it('wants a real YYYY-MM-DD for a non-blank date', () => {
    expect(code({}, { type: 'date', content: '2024-02-29' })).toBeNull();
    expect(code({}, { type: 'date', content: '' })).toBeNull();
    expect(fieldValueProblem(field({}), { type: 'date', content: '2023-02-29' })?.reason).toBe('must be a real date written YYYY-MM-DD');
  });

  it('matches the whole value against a pattern, and gives the field\'s own message', () => {
    const rules = { validation: { pattern: '[A-Z]{2}[0-9]{4}', message: 'Two letters, then four digits' } };
    expect(code(rules, { type: 'text', content: 'AB1234' })).toBeNull();
    expect(fieldValueProblem(field(rules), { type: 'text', content: 'xAB1234' })).toMatchObject({
      code: 'pattern',
      reason: 'Two letters, then four digits',
    });
    // An alternation is anchored as a whole, as HTML's pattern attribute is.
    expect(code({ validation: { pattern: 'a|b' } }, { type: 'text', content: 'ab' })).toBe('pattern');
  });

  it('knows an email address and a phone number', () => {
    for (const content of ['ada@example.com', 'first.last+tag@mail.example.co.uk']) {
      expect(code({ type: 'email' }, { type: 'email', content })).toBeNull();
    }
    for (const content of ['ada', 'ada@example', 'ada@@example.com', 'a da@example.com', `${'a'.repeat(250)}@example.com`]) {
      expect(code({ type: 'email' }, { type: 'email', content })).toBe('email');
    }
    for (const content of ['+1 555 010 0199', '(030) 123-4567', '0301234567']) {
      expect(code({ type: 'phone' }, { type: 'phone', content })).toBeNull();
    }
    for (const content of ['12', 'call me', '+1 555 010 0199 ext', '1234567890123456', '1+2345678']) {
      expect(code({ type: 'phone' }, { type: 'phone', content })).toBe('phone');
    }
  });

  it('takes decimal numbers within min and max on their step', () => {
    const rules = { type: 'number' as const, validation: { min: 1, max: 10, step: 0.5 } };
    for (const content of ['1', '9.5', '10', '2.0', '', '3e0']) expect(code(rules, { type: 'number', content })).toBeNull();
    expect(code(rules, { type: 'number', content: '0.5' })).toBe('min');
    expect(code(rules, { type: 'number', content: '10.5' })).toBe('max');
    expect(fieldValueProblem(field(rules), { type: 'number', content: '1.25' })).toMatchObject({ code: 'step', params: { step: 0.5 } });
    for (const content of ['abc', '1,5', '0x10', 'Infinity', '1e400', '--1', ' 1']) {
      expect(code(rules, { type: 'number', content })).toBe('number');
    }
    // Binary rounding does not make 0.3 miss a 0.1 step.
    expect(code({ type: 'number', validation: { step: 0.1 } }, { type: 'number', content: '0.3' })).toBeNull();
  });

  it('takes only one of a choice field\'s options, or none', () => {
    const options = [
      { value: 'monthly', label: 'Monthly' },
      { value: 'yearly', label: 'Yearly' },
    ];
    expect(code({ type: 'select', options }, { type: 'select', value: 'yearly' })).toBeNull();
    expect(code({ type: 'radio', options }, { type: 'radio', value: '' })).toBeNull();
    expect(code({ type: 'radio', options }, { type: 'radio', value: 'weekly' })).toBe('option');
  });

  it('caps an image\'s decoded size', () => {
    const small = `data:image/jpeg;base64,${btoa('x'.repeat(30))}`;
    expect(code({ type: 'image' }, { type: 'image', imageData: small })).toBeNull();
    const large = `data:image/jpeg;base64,${'A'.repeat(Math.ceil((SUBMISSION_LIMITS.maxImageBytes + 3) / 3) * 4)}`;
    expect(code({ type: 'image' }, { type: 'image', imageData: large })).toBe('image');
  });
});

describe('hasValue of the new types', () => {
  it('counts blank text, no choice and an empty image as no value', () => {
    expect(hasValue({ type: 'number', content: ' ' })).toBe(false);
    expect(hasValue({ type: 'number', content: '0' })).toBe(true);
    expect(hasValue({ type: 'select', value: '' })).toBe(false);
    expect(hasValue({ type: 'radio', value: 'a' })).toBe(true);
    expect(hasValue({ type: 'image', imageData: 'data:image/jpeg;base64,' })).toBe(false);
  });
});

describe('fieldDefinitionIssues of options and validation', () => {
  const issuesOf = (definition: Partial<FieldDefinition>) => fieldDefinitionIssues([field(definition)], 1);

  it('wants options on a choice field only, without duplicates, and a prefill among them', () => {
    expect(issuesOf({ type: 'select' })).toEqual([{ field: 'fields[0].options', reason: 'a select field needs options' }]);
    expect(issuesOf({ type: 'text', options: [{ value: 'a', label: 'A' }] })).toEqual([
      { field: 'fields[0].options', reason: 'a text field takes no options' },
    ]);
    const twice = [
      { value: 'a', label: 'A' },
      { value: 'a', label: 'Again' },
    ];
    expect(issuesOf({ type: 'radio', options: twice })).toEqual([{ field: 'fields[0].options[1].value', reason: 'duplicate option "a"' }]);
    expect(issuesOf({ type: 'radio', options: [{ value: 'a', label: 'A' }], value: { type: 'radio', value: 'b' } })).toEqual([
      { field: 'fields[0].value.value', reason: "must be the value of one of the field's options" },
    ]);
  });

  it('wants each rule on the types that take it, consistent limits and a valid pattern', () => {
    expect(issuesOf({ type: 'checkbox', validation: { maxLength: 3 } })).toEqual([
      { field: 'fields[0].validation.maxLength', reason: 'a checkbox field takes no maxLength rule' },
    ]);
    expect(issuesOf({ type: 'text', validation: { min: 1 } })).toEqual([
      { field: 'fields[0].validation.min', reason: 'a text field takes no min rule' },
    ]);
    expect(issuesOf({ type: 'number', validation: { min: 5, max: 1 } })).toEqual([
      { field: 'fields[0].validation.max', reason: 'must not be less than min' },
    ]);
    expect(issuesOf({ type: 'email', validation: { minLength: 5, maxLength: 2 } })).toEqual([
      { field: 'fields[0].validation.maxLength', reason: 'must not be less than minLength' },
    ]);
    expect(issuesOf({ type: 'text', validation: { pattern: '(' } })).toEqual([
      { field: 'fields[0].validation.pattern', reason: 'is not a valid regular expression' },
    ]);
    expect(issuesOf({ type: 'text', validation: { message: 'Why?' } })).toEqual([
      { field: 'fields[0].validation.message', reason: 'is the message of a pattern, and there is none' },
    ]);
    expect(issuesOf({ type: 'number', validation: { min: 0, max: 10, step: 2 }, value: { type: 'number', content: '3' } })).toEqual([
      { field: 'fields[0].value.content', reason: 'must be 0 plus a multiple of 2' },
    ]);
  });

  it('takes a font size on the types written as text only, and the size wins over a derived style', () => {
    for (const type of ['text', 'date', 'number', 'email', 'phone', 'textarea'] as const) expect(issuesOf({ type, fontSize: 9 })).toEqual([]);
    expect(issuesOf({ type: 'select', fontSize: 9, options: [{ value: 'a', label: 'A' }] })).toEqual([]);
    for (const type of ['signature', 'initials', 'checkbox', 'image'] as const) {
      expect(issuesOf({ type, fontSize: 9 })).toEqual([{ field: 'fields[0].fontSize', reason: `a ${type} field takes no fontSize` }]);
      expect(takesFontSize(type)).toBe(false);
    }
    // A draft is told as well: the size is of where the field is and what it is.
    expect(fieldDefinitionIssues([field({ type: 'signature', fontSize: 9 })], 1, { draft: true })).toHaveLength(1);
    const derived = { fontSize: 13.5, fontFamily: 'Helvetica', textAlign: 'left' } as const;
    expect(fieldTextStyle(field({ fontSize: 9 }), derived)).toEqual({ ...derived, fontSize: 9 });
    expect(fieldTextStyle(field({}), derived)).toBe(derived);
    expect(fieldTextStyle(undefined, derived)).toBe(derived);
    expect(FieldDefinitionSchema.safeParse(field({ fontSize: 3.9 })).success).toBe(false);
    expect(FieldDefinitionSchema.safeParse(field({ fontSize: 72 })).success).toBe(true);
    expect(FieldDefinitionSchema.safeParse(field({ fontSize: 73 })).success).toBe(false);
  });

  it('compiles a pattern once, and answers null for one that is not valid', () => {
    expect(fieldPattern('a+')).toBe(fieldPattern('a+'));
    expect(fieldPattern('[')).toBeNull();
  });
});
