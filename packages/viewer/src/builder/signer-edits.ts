import type { SignerDefinition } from '@signet/contract';

/**
 * The draft's signers as the signers section edits them (docs/decisions.md, "Builder: field properties and signers"):
 * plain functions, no zod (`signer-edits.test.ts` checks them against the contract's schemas).
 */

/** Most signers one document may have (the contract's `MAX_SIGNERS`). */
export const MAX_SIGNERS = 20;

/** Field and signer ids: 1 to 64 letters, digits or `_ . : -` (the contract's `FieldIdSchema`). */
export const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/** `signers` with `order` 1, 2, 3… as listed: after the author added, removed or moved one. */
export const renumber = (signers: readonly SignerDefinition[]): SignerDefinition[] => signers.map((signer, index) => ({ ...signer, order: index + 1 }));

/** `signers` with the one at `index` moved `by` places (−1 up, +1 down), renumbered; unchanged at an end. */
export function moveSigner(signers: readonly SignerDefinition[], index: number, by: number): SignerDefinition[] {
  const to = index + by;
  if (to < 0 || to >= signers.length || index < 0 || index >= signers.length) return [...signers];
  const list = [...signers];
  const [moved] = list.splice(index, 1);
  list.splice(to, 0, moved!);
  return renumber(list);
}

/**
 * A signer id for a new signer named `name`: the name in lower case with runs of other characters as `-` (at most
 * 40 characters), `signer` when nothing is left, numbered `-2`, `-3`… when taken.
 * @example newSignerId('Tina Tenant', []) // 'tina-tenant'
 */
export function newSignerId(name: string, signers: ReadonlyArray<{ id: string }>): string {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'signer';
  const used = new Set(signers.map((signer) => signer.id));
  if (!used.has(base)) return base;
  let n = 2;
  while (used.has(`${base}-${n}`)) n += 1;
  return `${base}-${n}`;
}

/** zod's `z.email()` pattern, which the contract's `SignerDefinition.email` is checked with. */
const EMAIL = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** What is wrong with a signer's name or email as typed (`null`: the server takes it). */
export function signerProblem(name: string, email: string): 'name' | 'email' | null {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 200) return 'name';
  const address = email.trim();
  if (address && (address.length > 320 || !EMAIL.test(address))) return 'email';
  return null;
}

/**
 * A new signer named `name` (and `email` when given) added at the end of `signers`, renumbered. The caller checks
 * `signerProblem` first.
 */
export function addSigner(signers: readonly SignerDefinition[], name: string, email: string): SignerDefinition[] {
  const address = email.trim();
  const signer: SignerDefinition = { id: newSignerId(name, signers), name: name.trim(), ...(address ? { email: address } : {}) };
  return renumber([...signers, signer]);
}
