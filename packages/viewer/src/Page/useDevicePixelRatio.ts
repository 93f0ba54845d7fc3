import { useEffect, useState } from 'react';

const currentRatio = () => (typeof window !== 'undefined' && window.devicePixelRatio > 0 ? window.devicePixelRatio : 1);

/**
 * The device pixel ratio, updated when it changes (browser zoom, a window moved to another screen), so canvases
 * can be redrawn sharp.
 * @example const dpr = useDevicePixelRatio();
 */
export function useDevicePixelRatio(): number {
  const [ratio, setRatio] = useState(currentRatio);
  useEffect(() => {
    // A media query on the current ratio fires once when it stops matching; the next effect watches the new ratio.
    const query = window.matchMedia(`(resolution: ${ratio}dppx)`);
    const onChange = () => setRatio(currentRatio());
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [ratio]);
  return ratio;
}
