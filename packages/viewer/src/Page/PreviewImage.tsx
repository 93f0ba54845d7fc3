/** React's types do not know `elementtiming` yet; Chromium reports the image's paint time under this name. */
const ELEMENT_TIMING: Record<string, string> = { elementtiming: 'signet-page-preview' };

/**
 * A page's preview image, filling its page box. It carries `elementtiming="signet-page-preview"`, so a host's
 * real-user monitoring (and `pnpm bench:viewer`) can read when the page first appeared through the Element Timing
 * API.
 * @example <PreviewImage src={preview.src} />
 */
export function PreviewImage({ src }: { src: string }) {
  return <img className="signet-page-preview" src={src} alt="" draggable={false} {...ELEMENT_TIMING} />;
}
