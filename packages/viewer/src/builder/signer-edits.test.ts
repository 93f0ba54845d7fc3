import { describe, expect, it } from 'vitest';
import { MAX_SIGNERS as CONTRACT_MAX, SignerDefinitionSchema, SignerIdSchema, UpdateDraftRequestSchema, type FieldDefinition } from '@signet/contract';
import { savedContent, signersFromDraft } from './draft-signers.js';
import { addSigner, MAX_SIGNERS, moveSigner, newSignerId, renumber, signerProblem } from './signer-edits.js';

const field = (overrides: Partial<FieldDefinition> = {}): FieldDefinition => ({
  id: 'sign', type: 'signature', page: 1, x: 0.1, y: 0.1, width: 0.2, height: 0.05, required: true, editable: true, label: 'Sign', ...overrides,
});

describe('signers as the builder edits them', () => {
  it('gives a new signer an id of the contract’s form, from the name, unique', () => {
    expect(MAX_SIGNERS).toBe(CONTRACT_MAX);
    expect(newSignerId('Tina Tenant', [])).toBe('tina-tenant');
    expect(newSignerId('Tina Tenant', [{ id: 'tina-tenant' }, { id: 'tina-tenant-2' }])).toBe('tina-tenant-3');
    expect(newSignerId('Zoë Ørsted', [])).toBe('zoe-rsted');
    expect(newSignerId('山田 太郎', [])).toBe('signer');
    expect(newSignerId('  ', [{ id: 'signer' }])).toBe('signer-2');
    for (const name of ['Tina Tenant', 'Zoë', '山田', 'x'.repeat(300), '--a--', 'A.B:C']) {
      expect(SignerIdSchema.safeParse(newSignerId(name, [])).success, name).toBe(true);
    }
  });

  it('refuses in advance the names and emails the contract refuses', () => {
    const names = ['Tina', '  Tina  ', '', '   ', 'x'.repeat(200), 'x'.repeat(201)];
    for (const name of names) expect(signerProblem(name, '') === null, name).toBe(SignerDefinitionSchema.safeParse({ id: 'a', name }).success);
    const emails = ['tina@example.com', 'tina.t+x@mail.example.co.uk', 'tina', 'tina@example', 'a@b.c', '@example.com', 'tina@@example.com', 'tina..t@example.com', `${'x'.repeat(310)}@example.com`];
    for (const email of emails) {
      expect(signerProblem('Tina', email) === null, email).toBe(SignerDefinitionSchema.safeParse({ id: 'a', name: 'Tina', email }).success);
    }
    expect(signerProblem('Tina', '')).toBeNull();
  });

  it('adds, moves and renumbers signers as the contract takes them', () => {
    let list = signersFromDraft([{ id: 'landlord', name: 'Lars', order: 2 }, { id: 'tenant', name: 'Tina', email: 'tina@example.com', order: 1 }]);
    expect(list.map((signer) => signer.id)).toEqual(['tenant', 'landlord']);
    list = addSigner(list, '  Gary Guarantor ', 'gary@example.com');
    expect(list.at(-1)).toEqual({ id: 'gary-guarantor', name: 'Gary Guarantor', email: 'gary@example.com', order: 3 });
    list = moveSigner(list, 2, -1);
    expect(list.map((signer) => [signer.id, signer.order])).toEqual([['tenant', 1], ['gary-guarantor', 2], ['landlord', 3]]);
    expect(moveSigner(list, 0, -1)).toEqual(list);
    expect(renumber(list.slice(1)).map((signer) => signer.order)).toEqual([1, 2]);
    const saved = savedContent([field({ signerId: 'tenant' }), field({ id: 'b', signerId: 'gary-guarantor' }), field({ id: 'c', signerId: 'landlord' })], list, 'sequential');
    expect(UpdateDraftRequestSchema.safeParse(saved).success).toBe(true);
  });

  it('saves fields, signers and order so that the draft route takes them, whatever undo left', () => {
    const list = addSigner([], 'Tina', '');
    // A field without a signer on a draft with signers: the first signer's.
    expect(savedContent([field()], list, undefined)).toEqual({ fields: [field({ signerId: 'tina' })], signers: list, signingOrder: 'parallel' });
    // Without signers: no signer named, no order.
    expect(savedContent([field({ signerId: 'gone' })], [], 'sequential')).toEqual({ fields: [field()], signers: undefined, signingOrder: undefined });
    // A signer removed meanwhile: the first signer's.
    expect(savedContent([field({ signerId: 'gone' })], list, 'sequential').fields[0]!.signerId).toBe('tina');
    const { signers, signingOrder, fields } = savedContent([field()], [], undefined);
    expect(UpdateDraftRequestSchema.safeParse({ fields, ...(signers ? { signers } : {}), ...(signingOrder ? { signingOrder } : {}) }).success).toBe(true);
  });
});
