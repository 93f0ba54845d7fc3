import { useRef } from 'react';

/**
 * A ref that always holds the latest `value`: the host's callbacks are called through it, so effects and memoised
 * callbacks need not re-run (or re-render the page list) when a host passes new inline functions.
 * @example const events = useLatest({ onReady }); useEffect(() => events.current.onReady?.(doc), [doc]);
 */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}
