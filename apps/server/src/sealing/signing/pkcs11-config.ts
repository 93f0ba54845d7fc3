/**
 * `SIGNET_SIGNING_PKCS11`: where the sealing key of a PKCS#11 token (an HSM) is, as a PKCS#11 URI (RFC 7512), and
 * what crosses into the PDF worker that signs with it (docs/operations.md, "Keys in hardware (PKCS#11)").
 */

/** Where the key is: the module to load, the token, and the key's label; the PIN travels beside it. */
export interface Pkcs11Location {
  /** The PKCS#11 module (a shared library), the URI's `module-path`. */
  modulePath: string;
  /** The token's label (`CKA_LABEL` of its token info), the URI's `token`. */
  token: string;
  /** The private key's label (`CKA_LABEL`), the URI's `object`; its certificate is the one with the key's `CKA_ID`. */
  keyLabel: string;
}

/**
 * What a PDF worker needs to sign with the token: plain data, since a module's handle and a session cannot cross
 * processes. The worker loads the module and opens its own session.
 */
export interface Pkcs11Settings extends Pkcs11Location {
  /** The user PIN (`SIGNET_SIGNING_PKCS11_PIN`, or the URI's `pin-value`); unset, the token is used without login. */
  pin?: string;
  /** Extra certificates for the chain (`SIGNET_SIGNING_PKCS11_CHAIN`, DER), besides the token's own. */
  chain?: Uint8Array[];
}

const PATH_ATTRIBUTES = new Set(['token', 'object', 'type']);
const QUERY_ATTRIBUTES = new Set(['module-path', 'pin-value']);

/**
 * Reads a PKCS#11 URI of the form `pkcs11:token=<label>;object=<key label>?module-path=<library>`, values
 * percent-encoded; `type`, when given, must be `private`; `pin-value` is accepted but `SIGNET_SIGNING_PKCS11_PIN`
 * keeps the PIN out of the URI. Errors never repeat the URI (it may hold the PIN).
 * @example
 * parsePkcs11Uri('pkcs11:token=Signet;object=seal?module-path=/usr/lib/softhsm/libsofthsm2.so')
 * // { location: { modulePath: '/usr/lib/softhsm/libsofthsm2.so', token: 'Signet', keyLabel: 'seal' } }
 */
export function parsePkcs11Uri(uri: string): { location: Pkcs11Location; pin?: string } {
  if (!uri.startsWith('pkcs11:')) throw new Error('a PKCS#11 URI starts with "pkcs11:" (pkcs11:token=…;object=…?module-path=…)');
  const rest = uri.slice('pkcs11:'.length);
  const queryAt = rest.indexOf('?');
  const path = attributes(queryAt === -1 ? rest : rest.slice(0, queryAt), ';', PATH_ATTRIBUTES);
  const query = attributes(queryAt === -1 ? '' : rest.slice(queryAt + 1), '&', QUERY_ATTRIBUTES);
  const type = path.get('type');
  if (type !== undefined && type !== 'private') throw new Error(`type=${type}: the URI names the private key (type=private)`);
  const modulePath = query.get('module-path');
  const token = path.get('token');
  const keyLabel = path.get('object');
  if (!modulePath) throw new Error('module-path is missing: the PKCS#11 module (e.g. ?module-path=/usr/lib/softhsm/libsofthsm2.so)');
  if (!token) throw new Error("token is missing: the token's label (token=…)");
  if (!keyLabel) throw new Error("object is missing: the private key's label (object=…)");
  const pin = query.get('pin-value');
  return { location: { modulePath, token, keyLabel }, ...(pin !== undefined ? { pin } : {}) };
}

function attributes(text: string, separator: string, known: Set<string>): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of text.split(separator)) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const name = equals === -1 ? part : part.slice(0, equals);
    if (equals === -1) throw new Error(`${name} has no value (${name}=…)`);
    if (!known.has(name)) throw new Error(`"${name}" is not an attribute Signet reads (it reads ${[...known].join(', ')})`);
    if (found.has(name)) throw new Error(`${name} is given twice`);
    let value: string;
    try {
      value = decodeURIComponent(part.slice(equals + 1));
    } catch {
      throw new Error(`${name} has a malformed percent-encoding`);
    }
    found.set(name, value);
  }
  return found;
}
