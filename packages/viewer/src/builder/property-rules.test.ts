import { describe, expect, it } from 'vitest';
import { FieldDefinitionSchema, FieldIdSchema, FieldValidationSchema, type FieldDefinition, type FieldType } from '@signet/contract';
import { fieldIdProblem, parseFontSize, parseRule, prefillKind, prefillOf, rulesOf, withFontSize, withPrefill, withRule, type Rule } from './property-rules.js';
import { FIELD_TYPES } from './field-edits.js';

const field = (type: FieldType, overrides: Partial<FieldDefinition> = {}): FieldDefinition => ({
  id: `${type}-1`, type, page: 1, x: 0.1, y: 0.1, width: 0.2, height: 0.05, required: false, editable: true, label: type, ...overrides,
});
/** What the contract's schema says of a field: its issues' paths, none when it takes it. */
const refused = (definition: FieldDefinition) => (FieldDefinitionSchema.safeParse(definition).error?.issues ?? []).map((issue) => issue.path.join('.'));

describe('field properties built so that the contract takes them', () => {
  it('checks an id as the contract does, and that no other field has it', () => {
    const samples = ['a', 'tenant.sign:1_b-2', '', 'has space', 'é', 'x'.repeat(64), 'x'.repeat(65), 'a/b', 'ok-ID.9'];
    for (const id of samples) expect(fieldIdProblem(id, [], 'own') === null, id).toBe(FieldIdSchema.safeParse(id).success);
    const fields = [field('text', { id: 'name' }), field('date', { id: 'when' })];
    expect(fieldIdProblem('when', fields, 'name')).toBe('taken');
    expect(fieldIdProblem('name', fields, 'name')).toBeNull();
    expect(fieldIdProblem('new one', fields, 'name')).toBe('invalid');
  });

  it('prefills each type with a value of its own type, and none for images and blanks', () => {
    const inputs: Record<FieldType, string | boolean> = {
      text: 'Ada', signature: 'x', initials: 'x', date: '2026-11-27', checkbox: true, number: '12.5', email: 'ada@example.com',
      phone: '+44 20 7946 0000', textarea: 'Line 1\nLine 2', select: 'b', radio: 'a', image: 'x',
    };
    const options = [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }];
    for (const type of FIELD_TYPES) {
      const base = field(type, prefillKind(type) === 'choice' ? { options } : {});
      const prefilled = withPrefill(base, inputs[type]);
      expect(refused(prefilled), type).toEqual([]);
      if (prefillKind(type) === null) expect(prefilled.value, type).toBeUndefined();
      else {
        expect(prefilled.value?.type, type).toBe(type);
        expect(prefillOf(prefilled), type).toEqual(inputs[type]);
      }
      expect(withPrefill(prefilled, type === 'checkbox' ? false : '')).toEqual(base);
    }
    // An option the field does not have is no prefill.
    expect(withPrefill(field('select', { options }), 'z').value).toBeUndefined();
  });

  it('offers the rules the contract allows on each type, and builds them as its schema takes them', () => {
    expect(rulesOf('number')).toEqual(['min', 'max', 'step']);
    expect(rulesOf('email')).toEqual(['minLength', 'maxLength', 'pattern', 'message']);
    for (const type of ['date', 'checkbox', 'signature', 'select'] as const) expect(rulesOf(type)).toEqual([]);
    const typed: Array<[Rule, string]> = [['min', '-2.5'], ['max', '10'], ['step', '0.5'], ['minLength', '0'], ['maxLength', '10000'], ['pattern', '[A-Z]{2}'], ['message', 'Two capitals']];
    let number = field('number');
    let text = field('text');
    for (const [rule, input] of typed) {
      const parsed = parseRule(rule, input);
      expect('value' in parsed && parsed.value !== undefined, rule).toBe(true);
      if (!('value' in parsed)) continue;
      if (rulesOf('number').includes(rule)) number = withRule(number, rule, parsed.value);
      else text = withRule(text, rule, parsed.value);
    }
    expect(number.validation).toEqual({ min: -2.5, max: 10, step: 0.5 });
    expect(text.validation).toEqual({ minLength: 0, maxLength: 10_000, pattern: '[A-Z]{2}', message: 'Two capitals' });
    expect(refused(number)).toEqual([]);
    expect(refused(text)).toEqual([]);
    // Blank removes a rule; the pattern takes its message along; no rule left, no `validation`.
    expect(withRule(text, 'pattern', undefined).validation).toEqual({ minLength: 0, maxLength: 10_000 });
    expect(withRule(withRule(number, 'min', undefined), 'max', undefined)).toMatchObject({ validation: { step: 0.5 } });
    expect('validation' in withRule(field('number', { validation: { step: 1 } }), 'step', undefined)).toBe(false);
  });

  it('does not apply what the contract would refuse, and says why', () => {
    const cases: Array<[Rule, string, string]> = [['min', 'ten', 'number'], ['step', '0', 'positive'], ['step', '-1', 'positive'], ['minLength', '1.5', 'whole'], ['minLength', '-1', 'whole'], ['maxLength', '0', 'whole'], ['maxLength', '10001', 'whole'], ['max', '1e400', 'number']];
    for (const [rule, input, problem] of cases) {
      expect(parseRule(rule, input), `${rule} ${input}`).toEqual({ problem });
      // The contract refuses them too (where they are numbers at all).
      const number = Number(input);
      if (Number.isFinite(number)) expect(FieldValidationSchema.safeParse({ [rule]: number }).success, `${rule} ${input}`).toBe(false);
    }
    expect(parseRule('max', '  ')).toEqual({ value: undefined });
  });

  it('applies a font size of 4–72 pt on half points, removes it when blank, and refuses the rest', () => {
    expect(parseFontSize('9')).toEqual({ value: 9 });
    expect(parseFontSize(' 10,5 ')).toEqual({ value: 10.5 });
    expect(parseFontSize('10.3')).toEqual({ value: 10.5 });
    expect(parseFontSize('')).toEqual({ value: undefined });
    for (const input of ['3.5', '73', '-9', 'nine', '1e1', '12pt']) expect(parseFontSize(input), input).toEqual({ problem: 'range' });
    const text = field('text');
    const sized = withFontSize(text, 9);
    expect(FieldDefinitionSchema.parse(sized).fontSize).toBe(9);
    expect('fontSize' in withFontSize(sized, undefined)).toBe(false);
    for (const input of ['4', '72', '17.5']) {
      const parsed = parseFontSize(input);
      expect(FieldDefinitionSchema.safeParse(withFontSize(text, 'value' in parsed ? parsed.value : undefined)).success, input).toBe(true);
    }
  });
});
