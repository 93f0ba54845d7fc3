import { FIELD_TYPES } from '@signet/contract';
import { describe, expect, it } from 'vitest';
import { MAX_TAG_LENGTH, parseTag, tagEnd } from './grammar.js';

describe('parseTag', () => {
  it('reads the type, flags and options of docs/text-tags.md', () => {
    expect(parseTag('{{signature;signer=tenant;required}}')).toEqual({
      ok: true,
      tag: { type: 'signature', signerId: 'tenant', required: true, readonly: false },
    });
    expect(parseTag('{{text;id=rent;label=Monthly rent;placeholder=1,200.00;readonly;width=120;height=18;fontSize=9.5}}')).toEqual({
      ok: true,
      tag: { type: 'text', id: 'rent', label: 'Monthly rent', placeholder: '1,200.00', required: false, readonly: true, width: 120, height: 18, fontSize: 9.5 },
    });
  });

  it('knows every field type of the contract', () => {
    for (const type of FIELD_TYPES) {
      const source = type === 'select' || type === 'radio' ? `{{${type};options=a|b}}` : `{{${type}}}`;
      expect(parseTag(source)).toMatchObject({ ok: true, tag: { type } });
    }
  });

  it('reads options as value or value:Label', () => {
    expect(parseTag('{{select;options=monthly:Every month|yearly:Every year|once}}')).toMatchObject({
      ok: true,
      tag: { options: [{ value: 'monthly', label: 'Every month' }, { value: 'yearly', label: 'Every year' }, { value: 'once', label: 'once' }] },
    });
  });

  it('takes a backslash to make ; } | : = and itself literal', () => {
    expect(parseTag('{{text;label=a\\;b \\}\\} c\\\\d;placeholder=x\\=y}}')).toMatchObject({ ok: true, tag: { label: 'a;b }} c\\d', placeholder: 'x=y' } });
    expect(parseTag('{{radio;options=a\\|b:A or B\\: both|c}}')).toMatchObject({
      ok: true,
      tag: { options: [{ value: 'a|b', label: 'A or B: both' }, { value: 'c', label: 'c' }] },
    });
  });

  it('ignores spaces around items and an empty item', () => {
    expect(parseTag('{{ date ; signer = landlord ; required ;}}')).toMatchObject({ ok: true, tag: { type: 'date', signerId: 'landlord', required: true } });
  });

  it.each([
    ['{{sigature}}', 'unknown type "sigature"'],
    ['{{}}', 'names no type'],
    ['{{text;colour=red}}', 'unknown option "colour"'],
    ['{{text;required=yes}}', '"required" is a flag and takes no value'],
    ['{{text;label}}', '"label" needs a value'],
    ['{{text;id=a;id=b}}', '"id" is given twice'],
    ['{{text;id=no spaces}}', 'id "no spaces" must be 1 to 64'],
    ['{{signature;signer=}}', 'signer "" must be 1 to 64'],
    ['{{text;label=}}', 'label must be 1 to 200 characters'],
    ['{{select}}', 'a select needs options'],
    ['{{text;options=a|b}}', 'a text takes no options'],
    ['{{select;options=a||b}}', 'options must not be empty'],
    ['{{radio;options=a|a:Again}}', 'option "a" is given twice'],
    [`{{select;options=${Array.from({ length: 51 }, (_, i) => i).join('|')}}}`, 'at most 50 options'],
    ['{{signature;fontSize=12}}', 'a signature takes no fontSize'],
    ['{{text;fontSize=3}}', 'fontSize must be a number of points from 4 to 72'],
    ['{{text;width=0}}', 'width must be a number of points above 0'],
    ['{{text;height=1e3}}', 'height must be a number of points above 0'],
  ])('refuses %s: %s', (source, reason) => {
    const parsed = parseTag(source);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toContain(reason);
  });
});

describe('tagEnd', () => {
  it('finds the closing braces past escaped ones', () => {
    expect(tagEnd('a {{date}} b', 2)).toBe(10);
    expect(tagEnd('{{text;label=\\}}} x', 0)).toBe(17);
  });

  it('gives up past the longest tag', () => {
    expect(tagEnd(`{{text;label=${'x'.repeat(MAX_TAG_LENGTH)}}}`, 0)).toBeUndefined();
    expect(tagEnd('{{text and no end', 0)).toBeUndefined();
  });
});
