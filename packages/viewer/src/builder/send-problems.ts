import type { FieldDefinition } from '@signet/contract';

/**
 * The problems of a refused send (`details.problems` of its 422) in words an author knows: each path
 * (`fields[2].options`, `signers[0]`) named by the field's label or the signer's name, then the server's reason.
 * @example sendProblems([{ field: 'signers[0]', reason: 'signer "tenant" has no signature field' }], fields, signers)
 * // ['Tina Tenant: signer "tenant" has no signature field']
 */
export function sendProblems(
  problems: ReadonlyArray<{ field: string; reason: string }>,
  fields: readonly FieldDefinition[],
  signers: ReadonlyArray<{ id: string; name: string }>,
): string[] {
  return problems.map(({ field: path, reason }) => {
    const at = /^(fields|signers)\[(\d+)\]/.exec(path);
    const name = at ? (at[1] === 'fields' ? fields[Number(at[2])]?.label : signers[Number(at[2])]?.name) : undefined;
    return name ? `${name}: ${reason}` : reason;
  });
}
