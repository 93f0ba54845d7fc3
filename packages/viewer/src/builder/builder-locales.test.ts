import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '../i18n/locales.js';
import { loadBuilderMessages } from './builder-locales.js';
import { en, fill, type BuilderMessages } from './messages.js';
import { sendProblems } from './send-problems.js';

const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe.each(SUPPORTED_LOCALES.filter((language) => language !== 'en'))('the builder in %s', (language) => {
  it('has every text, none empty, with the placeholders of English', async () => {
    const modules = import.meta.glob<{ default: BuilderMessages }>('./locales/*.ts');
    const own = (await modules[`./locales/${language}.ts`]!()).default;
    expect(Object.keys(own).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as (keyof BuilderMessages)[]) {
      expect(own[key].trim(), `${language}.${key}`).not.toBe('');
      expect(placeholders(own[key]), `${language}.${key}`).toEqual(placeholders(en[key]));
    }
    expect((await loadBuilderMessages(language)).send).toBe(own.send);
  });
});

it('fills placeholders and names a send problem’s field or signer', () => {
  expect(fill(en.pageLabel, { page: 3 })).toBe('Page 3');
  const field = { id: 'a', type: 'select' as const, page: 1, x: 0, y: 0, width: 0.1, height: 0.1, required: false, editable: true, label: 'Plan' };
  expect(
    sendProblems(
      [
        { field: 'fields[0].options', reason: 'a select field needs options' },
        { field: 'signers[1]', reason: 'signer "landlord" has no signature field' },
        { field: 'fields', reason: 'the document has no fields' },
      ],
      [field],
      [{ id: 'tenant', name: 'Tina' }, { id: 'landlord', name: 'Lars' }],
    ),
  ).toEqual(['Plan: a select field needs options', 'Lars: signer "landlord" has no signature field', 'the document has no fields']);
});
