import { useEffect, useRef } from 'react';

/**
 * A PNG data URL shown as an image without loading it as one: decoded in script (`createImageBitmap`) and drawn on
 * a canvas, so that a host page whose Content-Security-Policy allows no `data:` images (`img-src 'self' <api>`)
 * still shows the signer's signature. Sized like the image it replaces (its natural size, scaled down by CSS).
 * @example <DataUrlImage src={value.imageData} className="signet-sign-image" />
 */
export function DataUrlImage({ src, className }: { src: string; className: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let current = true;
    void decodeDataUrl(src).then(
      (bitmap) => {
        const target = canvas.current;
        if (current && target) {
          target.width = bitmap.width;
          target.height = bitmap.height;
          target.getContext('2d')?.drawImage(bitmap, 0, 0);
        }
        bitmap.close();
      },
      // A value the server accepted is a PNG; one that cannot be decoded leaves the box empty, as a broken image would.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [src]);
  // Empty (0 × 0) until drawn, rather than a canvas's default 300 × 150.
  return <canvas ref={canvas} className={className} width={0} height={0} aria-hidden="true" />;
}

function decodeDataUrl(dataUrl: string): Promise<ImageBitmap> {
  const comma = dataUrl.indexOf(',');
  const type = /^data:([^;,]+)/.exec(dataUrl)?.[1] ?? 'image/png';
  const binary = atob(dataUrl.slice(comma + 1));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return createImageBitmap(new Blob([bytes], { type }));
}
