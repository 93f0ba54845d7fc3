import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from './schemas/field.js';
import { SignerDefinitionListSchema } from './schemas/signers.js';
import { fieldsOfSigner, signerIssues, signerStatus, waitingFor } from './signer-rules.js';

const field = (id: string, signerId?: string): FieldDefinition => ({
  id,
  type: 'text',
  page: 1,
  x: 0.1,
  y: 0.1,
  width: 0.2,
  height: 0.05,
  required: true,
  editable: true,
  label: id,
  ...(signerId ? { signerId } : {}),
});

const lease = [
  { id: 'tenant', name: 'Tina Tenant', order: 1 },
  { id: 'guarantor', name: 'Gus', order: 1 },
  { id: 'landlord', name: 'Lars Landlord', order: 2 },
];

describe('signer rules', () => {
  it('wants every field to name a listed signer when there are signers, and none to when there are not', () => {
    expect(signerIssues(lease, [field('a', 'tenant'), field('b', 'landlord')])).toEqual([]);
    expect(signerIssues(lease, [field('a'), field('b', 'nobody')])).toEqual([
      { field: 'fields[0].signerId', reason: 'on a document with signers, each field names the signer who fills it in' },
      { field: 'fields[1].signerId', reason: 'no signer "nobody" in "signers"' },
    ]);
    expect(signerIssues(undefined, [field('a'), field('b', 'tenant')])).toEqual([
      { field: 'fields[1].signerId', reason: 'the document has no signers: send them in the "signers" part' },
    ]);
  });

  it('refuses duplicate signer ids, an empty list and more than 20 signers', () => {
    expect(SignerDefinitionListSchema.safeParse(lease).success).toBe(true);
    const duplicate = SignerDefinitionListSchema.safeParse([lease[0], lease[0]]);
    expect(duplicate.error?.issues[0]).toMatchObject({ path: [1, 'id'], message: 'duplicate signer id "tenant"' });
    expect(SignerDefinitionListSchema.safeParse([]).success).toBe(false);
    const many = Array.from({ length: 21 }, (_, i) => ({ id: `s${i}`, name: `S ${i}` }));
    expect(SignerDefinitionListSchema.safeParse(many).success).toBe(false);
    expect(SignerDefinitionListSchema.safeParse([{ id: 'x', name: '  ' }]).success).toBe(false);
    expect(SignerDefinitionListSchema.safeParse([{ id: 'x', name: 'X', role: 'admin' }]).success).toBe(false);
  });

  it("gives a signer their own fields, or every field when there is no signer", () => {
    const fields = [field('a', 'tenant'), field('b', 'landlord'), field('c', 'tenant')];
    expect(fieldsOfSigner(fields, 'tenant').map((f) => f.id)).toEqual(['a', 'c']);
    expect(fieldsOfSigner(fields, undefined).map((f) => f.id)).toEqual(['a', 'b', 'c']);
  });

  it('lets equal orders sign in parallel and a higher order wait for the lower ones, in sequential order only', () => {
    expect(waitingFor(lease, 'sequential', new Set(), 'landlord')).toEqual(['tenant', 'guarantor']);
    expect(waitingFor(lease, 'sequential', new Set(['tenant']), 'landlord')).toEqual(['guarantor']);
    expect(waitingFor(lease, 'sequential', new Set(), 'guarantor')).toEqual([]);
    expect(waitingFor(lease, 'parallel', new Set(), 'landlord')).toEqual([]);
  });

  it('walks a signer through waiting, ready, opened and completed', () => {
    const state = (completed: string[], opened: string[]) => ({ completed: new Set(completed), opened: new Set(opened) });
    expect(signerStatus(lease, 'sequential', state([], ['landlord']), 'landlord')).toBe('waiting');
    expect(signerStatus(lease, 'sequential', state(['tenant', 'guarantor'], []), 'landlord')).toBe('ready');
    expect(signerStatus(lease, 'sequential', state(['tenant', 'guarantor'], ['landlord']), 'landlord')).toBe('opened');
    expect(signerStatus(lease, 'sequential', state(['tenant', 'guarantor', 'landlord'], []), 'landlord')).toBe('completed');
    expect(signerStatus(lease, 'parallel', state([], []), 'landlord')).toBe('ready');
  });
});
