/**
 * The submissions' task in the PDF pool: decoding a submitted image in full (`image`), so that an image bomb costs
 * a worker, not the server (docs/decisions.md, "The PDF pool runs registered tasks").
 */
import type { PdfTaskDefinitions } from '../pdf/pool/index.js';
import type { ImageCheckInput, ImageCheckResult } from './decode-image.js';

declare module '../pdf/pool/tasks.js' {
  interface PdfTasks {
    /**
     * Decodes a submitted image (its bytes in place of the PDF) and normalises one over what a seal may decode
     * (`decodeSubmittedImage`): its size, and the seal's copy when it made one.
     */
    image: { input: ImageCheckInput; result: ImageCheckResult };
  }
}

/** The handler a worker loads for `image`. */
export const submissionPdfTasks = {
  image: {
    load: async () => {
      const { decodeSubmittedImage } = await import('./decode-image.js');
      return (bytes, input) => decodeSubmittedImage(bytes, input);
    },
  },
} satisfies PdfTaskDefinitions;
