// Apart from the signature pad's helpers, so that the pages (which watch the ratio too) do not bring signature_pad
// into the viewer's first chunk.

/**
 * Calls `onChange` whenever the window's `devicePixelRatio` changes (browser zoom, a window moved to another
 * screen), which a ResizeObserver on CSS sizes does not always report. Returns the function that stops watching.
 * @example
 * const stop = watchDevicePixelRatio(window, () => fitPadCanvas(canvas, pad));
 */
export function watchDevicePixelRatio(view: Window, onChange: () => void): () => void {
  let query: MediaQueryList | null = null;
  const listen = () => {
    query?.removeEventListener('change', changed);
    query = view.matchMedia(`(resolution: ${view.devicePixelRatio}dppx)`);
    query.addEventListener('change', changed);
  };
  // A resolution query matches one ratio only, so it is replaced by one for the new ratio each time.
  const changed = () => {
    listen();
    onChange();
  };
  listen();
  return () => query?.removeEventListener('change', changed);
}
