import type { FieldDefinition, ValueProblem } from '@signet/contract';
import type { ViewerMessages } from '../i18n/messages.js';
import type { Translator } from '../i18n/translate.js';

/** The viewer's message for each rule a value can break. */
const MESSAGE_OF: Readonly<Record<Exclude<ValueProblem['code'], 'pattern'>, keyof ViewerMessages>> = {
  tooShort: 'tooShort',
  tooLong: 'tooLong',
  email: 'invalidEmail',
  phone: 'invalidPhone',
  number: 'invalidNumber',
  min: 'numberMin',
  max: 'numberMax',
  step: 'numberStep',
  option: 'invalidOption',
  image: 'invalidImage',
  date: 'invalidField',
};

/**
 * What the signer is told of a value that breaks its field's rules, in the viewer's language: the field's own
 * message for a pattern, else the viewer's message for the rule, with its limit filled in as the locale writes
 * numbers (and its plural form chosen).
 * @example problemMessage({ code: 'max', params: { max: 10 }, … }, field, t) // 'Enter 10 or less'
 */
export function problemMessage(problem: ValueProblem, field: Pick<FieldDefinition, 'validation'>, t: Translator): string {
  if (problem.code === 'pattern') return field.validation?.message ?? t.text('patternMismatch');
  return t.text(MESSAGE_OF[problem.code], problem.params);
}
