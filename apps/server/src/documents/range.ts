/** A byte range, both ends inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a `Range` header against a file of `size` bytes (RFC 9110 §14): one range of bytes → that range;
 * one that cannot be met (or a malformed bytes range) → `'unsatisfiable'` (a 416); no header, another unit or
 * several ranges → `null`, and the whole file is sent.
 * @example parseRange('bytes=0-1023', 5000) // { start: 0, end: 1023 }
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const value = header.trim();
  if (!value.toLowerCase().startsWith('bytes=')) return null;
  if (value.includes(',')) return null;
  const match = /^bytes=(\d*)-(\d*)$/i.exec(value);
  if (!match) return 'unsatisfiable';
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return 'unsatisfiable';
  if (first === '') {
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  if (last !== '' && Number(last) < start) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return { start, end };
}
