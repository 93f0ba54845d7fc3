import type { FieldDefinition, FieldDefinitionIssue } from '@signet/contract';
import safeRegex from 'safe-regex2';

/**
 * The fields whose `validation.pattern` could take the server exponential time to match (nested repetition such as
 * `(a+)+`, found by `safe-regex2`): the server matches every submitted value against its field's pattern, so a
 * document must not carry one that a crafted value turns into a denial of service.
 * @example unsafePatternIssues([{ …, validation: { pattern: '(a+)+$' } }])
 * // [{ field: 'fields[0].validation.pattern', reason: 'could take exponential time to match: …' }]
 */
export function unsafePatternIssues(fields: readonly FieldDefinition[]): FieldDefinitionIssue[] {
  return fields.flatMap((field, index) => {
    const pattern = field.validation?.pattern;
    if (pattern === undefined || safeRegex(`^(?:${pattern})$`)) return [];
    const reason = 'could take exponential time to match: avoid a repetition inside a repetition, such as (a+)+';
    return [{ field: `fields[${index}].validation.pattern`, reason }];
  });
}
