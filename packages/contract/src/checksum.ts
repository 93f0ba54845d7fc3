import canonicalize from 'canonicalize';

/**
 * The canonical JSON (RFC 8785, JCS) of a submission payload without its `checksum` member.
 * @example canonicalPayload({ b: 1, a: 2, checksum: 'x' }) // '{"a":2,"b":1}'
 */
export function canonicalPayload(payload: object): string {
  const { checksum: _ignored, ...rest } = payload as Record<string, unknown>;
  const text = canonicalize(rest);
  if (text === undefined) throw new TypeError('payload cannot be serialized as JSON');
  return text;
}

/**
 * Lowercase hex SHA-256 of a string's UTF-8 bytes, through WebCrypto (browsers and Node 20+).
 * @example await sha256Hex('abc') // 'ba7816bf…'
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * A submission's checksum: SHA-256 of the JCS canonical JSON of the payload without `checksum` (docs/api.md, "Checksum").
 * @example const checksum = await submissionChecksum(payloadWithoutChecksum)
 */
export function submissionChecksum(payload: object): Promise<string> {
  return sha256Hex(canonicalPayload(payload));
}
