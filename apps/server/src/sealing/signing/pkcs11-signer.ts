/**
 * A `Signer` of `@libpdf/core` over a key held in a PKCS#11 token (an HSM), through the `pkcs11js` binding
 * (docs/operations.md, "Keys in hardware (PKCS#11)"). The data is hashed here and only the digest goes to the
 * token (`CKM_RSA_PKCS` over a DigestInfo, `CKM_ECDSA` over the digest), so any token that signs with RSA or EC
 * keys works, whether or not it offers the hash-and-sign mechanisms.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as pkijs from 'pkijs';
import type { DigestAlgorithm, KeyType, SignatureAlgorithm, Signer } from '@libpdf/core';
import type * as Pkcs11Module from 'pkcs11js';
import { SealError } from '../errors.js';
import type { Pkcs11Settings } from './pkcs11-config.js';

type Pkcs11Binding = typeof Pkcs11Module;
type Handle = Buffer;

/** What PKCS#1 v1.5 puts before the digest: the DER of `DigestInfo { algorithm, NULL }` up to the digest's bytes. */
const DIGEST_INFO_PREFIX: Record<DigestAlgorithm, Buffer> = {
  'SHA-256': Buffer.from('3031300d060960864801650304020105000420', 'hex'),
  'SHA-384': Buffer.from('3041300d060960864801650304020205000430', 'hex'),
  'SHA-512': Buffer.from('3051300d060960864801650304020305000440', 'hex'),
};
const NODE_HASH: Record<DigestAlgorithm, string> = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

/** A module loaded and initialised once per process, and how many of its signers are logged in on each slot. */
interface LoadedModule {
  lib: Pkcs11Binding;
  api: Pkcs11Module.PKCS11;
  logins: Map<string, number>;
}
const modules = new Map<string, LoadedModule>();

/**
 * A signer over one session with the token. `close()` ends the session (and logs out when it was the process's
 * last on that token); the module stays loaded for the process's next seal.
 */
export class Pkcs11Signer implements Signer {
  readonly certificate: Uint8Array;
  readonly certificateChain: Uint8Array[];
  readonly keyType: KeyType;
  readonly signatureAlgorithm: SignatureAlgorithm;
  readonly #module: LoadedModule;
  readonly #session: Handle;
  readonly #slotKey: string;
  readonly #key: Handle;
  readonly #loggedIn: boolean;
  #closed = false;

  private constructor(fields: {
    module: LoadedModule;
    session: Handle;
    slotKey: string;
    loggedIn: boolean;
    key: Handle;
    keyType: KeyType;
    certificate: Uint8Array;
    certificateChain: Uint8Array[];
  }) {
    this.#module = fields.module;
    this.#session = fields.session;
    this.#slotKey = fields.slotKey;
    this.#key = fields.key;
    this.#loggedIn = fields.loggedIn;
    this.keyType = fields.keyType;
    this.signatureAlgorithm = fields.keyType === 'RSA' ? 'RSASSA-PKCS1-v1_5' : 'ECDSA';
    this.certificate = fields.certificate;
    this.certificateChain = fields.certificateChain;
  }

  /**
   * Loads the module (once per process), finds the token by its label, logs in with the PIN, and finds the private
   * key by its label and its certificate by the key's `CKA_ID` (else by the same label). Each failure is a
   * non-retryable `SealError` that names what is missing; none repeats the PIN.
   * @example
   * const signer = await Pkcs11Signer.open({ modulePath, token: 'Signet', keyLabel: 'seal', pin });
   * try { await document.sign({ signer, … }) } finally { signer.close() }
   */
  static async open(settings: Pkcs11Settings): Promise<Pkcs11Signer> {
    const module = loadModule(settings.modulePath);
    const { api, lib } = module;
    const slot = findSlot(module, settings);
    const session = call(() => api.C_OpenSession(slot, lib.CKF_SERIAL_SESSION), `the token "${settings.token}" opens no session`);
    const slotKey = slot.toString('hex');
    let loggedIn = false;
    try {
      if (settings.pin !== undefined) {
        login(module, session, slotKey, settings);
        loggedIn = true;
      }
      const key = findKey(module, session, settings);
      const keyType = readKeyType(module, session, key, settings);
      const { certificate, others } = findCertificates(module, session, key, settings);
      const certificateChain = chainOf(certificate, [...others, ...(settings.chain ?? [])]);
      return new Pkcs11Signer({ module, session, slotKey, loggedIn, key, keyType, certificate, certificateChain });
    } catch (error) {
      endSession(module, session, slotKey, loggedIn);
      throw error;
    }
  }

  /** Hashes `data` and has the token sign the digest: PKCS#1 v1.5 for RSA, ECDSA (as DER) for EC. */
  async sign(data: Uint8Array, algorithm: DigestAlgorithm): Promise<Uint8Array> {
    if (this.#closed) throw new SealError('The PKCS#11 session was closed before signing', { retryable: false });
    const { api, lib } = this.#module;
    const digest = createHash(NODE_HASH[algorithm]).update(data).digest();
    const rsa = this.keyType === 'RSA';
    const input = rsa ? Buffer.concat([DIGEST_INFO_PREFIX[algorithm], digest]) : digest;
    const signature = call(() => {
      api.C_SignInit(this.#session, { mechanism: rsa ? lib.CKM_RSA_PKCS : lib.CKM_ECDSA }, this.#key);
      return api.C_Sign(this.#session, input, Buffer.alloc(1024));
    }, 'the token did not sign');
    // PKCS#11 gives ECDSA's r and s side by side (r || s); CMS wants SEQUENCE { INTEGER r, INTEGER s }.
    if (rsa) return new Uint8Array(signature);
    const bytes = new Uint8Array(signature);
    return new Uint8Array(pkijs.createCMSECDSASignature(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
  }

  /** Ends the session; the PIN's login ends with the process's last session on the token. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    endSession(this.#module, this.#session, this.#slotKey, this.#loggedIn);
  }
}

function loadModule(modulePath: string): LoadedModule {
  const cached = modules.get(modulePath);
  if (cached) return cached;
  if (!existsSync(modulePath)) {
    throw new SealError(`the PKCS#11 module ${modulePath} does not exist (module-path)`, { retryable: false });
  }
  let lib: Pkcs11Binding;
  try {
    lib = createRequire(import.meta.url)('pkcs11js') as Pkcs11Binding;
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new SealError(`the PKCS#11 binding (pkcs11js) is not installed or not built: ${detail}`, { retryable: false, cause: error });
  }
  const api = new lib.PKCS11();
  call(() => api.load(modulePath), `the PKCS#11 module ${modulePath} cannot be loaded`);
  try {
    api.C_Initialize();
  } catch (error) {
    if (!(error instanceof lib.Pkcs11Error && error.code === lib.CKR_CRYPTOKI_ALREADY_INITIALIZED)) {
      throw failure(error, `the PKCS#11 module ${modulePath} does not initialise`);
    }
  }
  const module = { lib, api, logins: new Map<string, number>() };
  modules.set(modulePath, module);
  return module;
}

function findSlot({ api }: LoadedModule, settings: Pkcs11Settings): Handle {
  const slots = call(() => api.C_GetSlotList(true), `the PKCS#11 module ${settings.modulePath} lists no slots`);
  const labels: string[] = [];
  for (const slot of slots) {
    const label = call(() => api.C_GetTokenInfo(slot), 'a token does not describe itself').label.trimEnd();
    if (label === settings.token) return slot;
    labels.push(`"${label}"`);
  }
  const present = labels.length ? `the tokens present: ${labels.join(', ')}` : 'no token is present';
  throw new SealError(`no token labelled "${settings.token}" in ${settings.modulePath} (${present})`, { retryable: false });
}

function login(module: LoadedModule, session: Handle, slotKey: string, settings: Pkcs11Settings): void {
  const { api, lib } = module;
  try {
    api.C_Login(session, lib.CKU_USER, settings.pin);
  } catch (error) {
    const code = error instanceof lib.Pkcs11Error ? error.code : undefined;
    if (code === lib.CKR_PIN_INCORRECT || code === lib.CKR_PIN_LEN_RANGE) {
      throw new SealError(`the token "${settings.token}" refused the PIN (SIGNET_SIGNING_PKCS11_PIN is wrong)`, { retryable: false });
    }
    if (code === lib.CKR_PIN_LOCKED) {
      throw new SealError(`the token "${settings.token}" has locked its user PIN (too many wrong PINs)`, { retryable: false });
    }
    if (code !== lib.CKR_USER_ALREADY_LOGGED_IN) throw failure(error, `the token "${settings.token}" refused the login`);
  }
  module.logins.set(slotKey, (module.logins.get(slotKey) ?? 0) + 1);
}

function endSession(module: LoadedModule, session: Handle, slotKey: string, loggedIn: boolean): void {
  const { api } = module;
  if (loggedIn && module.logins.has(slotKey)) {
    const left = module.logins.get(slotKey)! - 1;
    if (left > 0) module.logins.set(slotKey, left);
    else {
      module.logins.delete(slotKey);
      try {
        api.C_Logout(session);
      } catch {
        // Already logged out (the token was removed, or another session did it): the session closes all the same.
      }
    }
  }
  try {
    api.C_CloseSession(session);
  } catch {
    // A session the token already dropped (removed, reset) needs no closing.
  }
}

function findObjects({ api }: LoadedModule, session: Handle, template: Pkcs11Module.Template): Handle[] {
  return call(() => {
    api.C_FindObjectsInit(session, template);
    try {
      return api.C_FindObjects(session, 64);
    } finally {
      api.C_FindObjectsFinal(session);
    }
  }, 'the token does not list its objects');
}

function findKey(module: LoadedModule, session: Handle, settings: Pkcs11Settings): Handle {
  const { lib } = module;
  const keys = findObjects(module, session, [
    { type: lib.CKA_CLASS, value: lib.CKO_PRIVATE_KEY },
    { type: lib.CKA_LABEL, value: settings.keyLabel },
  ]);
  if (keys.length === 0) {
    const hint = settings.pin === undefined ? ' (no PIN was given: private keys show only after login, SIGNET_SIGNING_PKCS11_PIN)' : '';
    throw new SealError(`no private key labelled "${settings.keyLabel}" on the token "${settings.token}"${hint}`, { retryable: false });
  }
  if (keys.length > 1) {
    throw new SealError(`${keys.length} private keys are labelled "${settings.keyLabel}" on the token "${settings.token}": label one alone`, {
      retryable: false,
    });
  }
  return keys[0]!;
}

function readKeyType(module: LoadedModule, session: Handle, key: Handle, settings: Pkcs11Settings): KeyType {
  const { api, lib } = module;
  const [attribute] = call(() => api.C_GetAttributeValue(session, key, [{ type: lib.CKA_KEY_TYPE }]), 'the key does not say its type');
  const type = ulong(attribute?.value as Buffer);
  if (type === lib.CKK_RSA) return 'RSA';
  if (type === lib.CKK_EC) return 'EC';
  throw new SealError(`the key "${settings.keyLabel}" is neither RSA nor EC (CKA_KEY_TYPE ${type}): Signet seals with RSA or EC keys`, {
    retryable: false,
  });
}

/** The key's certificate (the one with its `CKA_ID`, else its label) and the token's other certificates. */
function findCertificates(
  module: LoadedModule,
  session: Handle,
  key: Handle,
  settings: Pkcs11Settings,
): { certificate: Uint8Array; others: Uint8Array[] } {
  const { api, lib } = module;
  const [idAttribute] = call(() => api.C_GetAttributeValue(session, key, [{ type: lib.CKA_ID }]), 'the key does not give its CKA_ID');
  const id = idAttribute?.value as Buffer | undefined;
  const value = (handle: Handle) =>
    new Uint8Array(call(() => api.C_GetAttributeValue(session, handle, [{ type: lib.CKA_VALUE }]), 'a certificate cannot be read')[0]!.value as Buffer);
  const certificates = { type: lib.CKA_CLASS, value: lib.CKO_CERTIFICATE };
  let found = id && id.length > 0 ? findObjects(module, session, [certificates, { type: lib.CKA_ID, value: id }]) : [];
  if (found.length === 0) found = findObjects(module, session, [certificates, { type: lib.CKA_LABEL, value: settings.keyLabel }]);
  if (found.length === 0) {
    throw new SealError(
      `no certificate for the key "${settings.keyLabel}" on the token "${settings.token}" (none with its CKA_ID nor its label)`,
      { retryable: false },
    );
  }
  const certificate = value(found[0]!);
  const others = findObjects(module, session, [certificates])
    .map(value)
    .filter((candidate) => Buffer.compare(candidate, certificate) !== 0);
  return { certificate, others };
}

/** The issuers of `leaf` among `candidates`, nearest first, up to a self-signed one or the first missing. */
function chainOf(leaf: Uint8Array, candidates: Uint8Array[]): Uint8Array[] {
  const rest = candidates.map((der) => ({ der, parsed: new X509Certificate(der) }));
  const chain: Uint8Array[] = [];
  let current = new X509Certificate(leaf);
  while (current.issuer !== current.subject) {
    const index = rest.findIndex((candidate) => candidate.parsed.subject === current.issuer && current.verify(candidate.parsed.publicKey));
    if (index === -1) break;
    const [next] = rest.splice(index, 1);
    chain.push(next!.der);
    current = next!.parsed;
  }
  return chain;
}

/** A `CK_ULONG` attribute, in the machine's byte order. */
function ulong(value: Buffer | undefined): number {
  if (!value || value.length === 0) return -1;
  const le = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  return Number(value.length >= 8 ? (le ? value.readBigUInt64LE() : value.readBigUInt64BE()) : le ? value.readUInt32LE() : value.readUInt32BE());
}

function call<T>(operation: () => T, what: string): T {
  try {
    return operation();
  } catch (error) {
    throw failure(error, what);
  }
}

function failure(error: unknown, what: string): SealError {
  if (error instanceof SealError) return error;
  const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new SealError(`${what}: ${detail}`, { retryable: false, cause: error });
}
