import { useEffect, useState } from 'react';
import { watchDevicePixelRatio } from '../watch-device-pixel-ratio.js';

const currentRatio = () => (typeof window !== 'undefined' && window.devicePixelRatio > 0 ? window.devicePixelRatio : 1);

/**
 * The device pixel ratio, updated when it changes (browser zoom, a window moved to another screen), so canvases
 * can be redrawn sharp.
 * @example const dpr = useDevicePixelRatio();
 */
export function useDevicePixelRatio(): number {
  const [ratio, setRatio] = useState(currentRatio);
  // The same resolution media query the signature pad watches (see `watchDevicePixelRatio`).
  useEffect(() => watchDevicePixelRatio(window, () => setRatio(currentRatio())), []);
  return ratio;
}
