import type { FieldDefinition, SignerDefinition, SigningOrder } from '@signet/contract';

/*
 * The builder's signers as loaded and as saved (docs/decisions.md, "Builder: field properties and signers"); what
 * edits them is `signer-edits.ts`, loaded with the signers section.
 */

/** The signers of a draft as loaded, in their order, as `PUT /documents/{id}/draft` takes them back. */
export function signersFromDraft(signers: ReadonlyArray<{ id: string; name: string; email?: string | undefined; order?: number | undefined }> | undefined): SignerDefinition[] {
  return [...(signers ?? [])]
    .sort((a, b) => (a.order ?? 1) - (b.order ?? 1))
    .map(({ id, name, email, order }) => ({ id, name, ...(email ? { email } : {}), ...(order !== undefined ? { order } : {}) }));
}

/**
 * What the builder saves of its signers: the list, or none (the draft's one implicit signer) when it is empty; the
 * signing order only with signers. A field without a signer on a draft with signers (an undo past the edit that gave
 * every field to the first signer added) is saved as the first signer's, and a signer's field on a draft without
 * signers as nobody's: the server refuses either otherwise.
 */
export function savedContent(fields: FieldDefinition[], signers: readonly SignerDefinition[], signingOrder: SigningOrder | undefined) {
  const first = signers[0]?.id;
  const ids = new Set(signers.map((signer) => signer.id));
  const owned = fields.map((field): FieldDefinition => {
    if (first === undefined) {
      if (field.signerId === undefined) return field;
      const { signerId: _none, ...rest } = field;
      return rest;
    }
    return field.signerId !== undefined && ids.has(field.signerId) ? field : { ...field, signerId: first };
  });
  return {
    fields: owned,
    signers: signers.length > 0 ? [...signers] : undefined,
    signingOrder: signers.length > 0 ? (signingOrder ?? 'parallel') : undefined,
  };
}
