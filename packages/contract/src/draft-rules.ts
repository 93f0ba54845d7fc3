import type { FieldDefinition } from './schemas/field.js';
import type { SignerDefinition } from './schemas/signers.js';
import { fieldDefinitionIssues, type FieldDefinitionIssue } from './field-rules.js';
import { signerIssues } from './signer-rules.js';

/** What a draft holds, as `draftProblems` reads it: without `signers`, one implicit signer owns every field. */
export interface DraftContent {
  fields: readonly FieldDefinition[];
  signers?: readonly SignerDefinition[] | undefined;
  pageCount: number;
}

/**
 * Every reason a draft cannot be sent yet (docs/api.md, "Drafts"), not only the first: each field's rules as at
 * creation (options on choice fields, rules that agree, a prefill that keeps them), fields that name a signer of the
 * document, and for each signer at least one field of theirs, a `signature` among them. Paths are those of
 * `PUT /documents/{id}/draft`'s body (`fields[2].options`, `signers[1]`); without signers, the one implicit signer
 * is `fields`. A builder may call it to show the problems before the server is asked.
 * @example draftProblems({ fields: [], pageCount: 1 }) // [{ field: 'fields', reason: 'the document has no fields: …' }]
 */
export function draftProblems({ fields, signers, pageCount }: DraftContent): FieldDefinitionIssue[] {
  const problems = [...fieldDefinitionIssues(fields, pageCount), ...signerIssues(signers ? [...signers] : undefined, fields)];
  if (!signers) {
    if (fields.length === 0) problems.push({ field: 'fields', reason: 'the document has no fields: place at least one, a signature among them' });
    else if (!fields.some((field) => field.type === 'signature')) {
      problems.push({ field: 'fields', reason: 'the document has no signature field: place one for the signer' });
    }
    return problems;
  }
  signers.forEach((signer, index) => {
    const own = fields.filter((field) => field.signerId === signer.id);
    if (own.length === 0) {
      problems.push({ field: `signers[${index}]`, reason: `signer "${signer.id}" has no field: place at least one, a signature among them` });
    } else if (!own.some((field) => field.type === 'signature')) {
      problems.push({ field: `signers[${index}]`, reason: `signer "${signer.id}" has no signature field` });
    }
  });
  return problems;
}
