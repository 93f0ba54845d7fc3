import { describe, expect, it } from 'vitest';
import { draftProblems } from './draft-rules.js';
import { fieldDefinitionIssues } from './field-rules.js';
import type { FieldDefinition } from './schemas/field.js';

const field = (id: string, type: FieldDefinition['type'], more: Partial<FieldDefinition> = {}): FieldDefinition => ({
  id,
  type,
  page: 1,
  x: 0.1,
  y: 0.1,
  width: 0.2,
  height: 0.05,
  required: true,
  editable: true,
  label: id,
  ...more,
});

describe('fieldDefinitionIssues of a draft', () => {
  it('keeps where a field is and what it takes, and leaves what is still being set up for sending', () => {
    const fields = [field('plan', 'select'), field('age', 'number', { validation: { min: 9, max: 1 } }), field('ok', 'checkbox', { options: [{ value: 'a', label: 'A' }] })];
    expect(fieldDefinitionIssues(fields, 1, { draft: true })).toEqual([{ field: 'fields[2].options', reason: 'a checkbox field takes no options' }]);
    expect(fieldDefinitionIssues(fields, 1).map((issue) => issue.field)).toEqual(['fields[0].options', 'fields[1].validation.max', 'fields[2].options']);
    expect(fieldDefinitionIssues([field('far', 'text', { page: 2 })], 1, { draft: true })).toEqual([
      { field: 'fields[0].page', reason: "page 2 is past the document's 1 pages" },
    ]);
  });
});

describe('draftProblems', () => {
  it('lists every problem: an empty draft, a signer without fields, one without a signature, a field naming nobody', () => {
    expect(draftProblems({ fields: [], pageCount: 1 })).toEqual([{ field: 'fields', reason: expect.stringMatching(/no fields/) }]);
    expect(draftProblems({ fields: [field('name', 'text')], pageCount: 1 })).toEqual([{ field: 'fields', reason: expect.stringMatching(/no signature field/) }]);
    const signers = [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }, { id: 'c', name: 'C' }];
    const fields = [field('sig', 'signature', { signerId: 'a' }), field('name', 'text', { signerId: 'b' }), field('x', 'text', { signerId: 'z' })];
    expect(draftProblems({ fields, signers, pageCount: 1 }).map((problem) => problem.field)).toEqual(['fields[2].signerId', 'signers[1]', 'signers[2]']);
  });

  it('finds nothing to say about a draft ready to send', () => {
    expect(draftProblems({ fields: [field('sig', 'signature')], pageCount: 1 })).toEqual([]);
  });
});
