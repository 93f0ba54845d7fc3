import type { Migration } from '../migrations.js';

/*
 * The seal's copy of a submission's images: an image over what a seal may decode (more than 2000 px a side, or
 * 16 bits a sample) is normalised at submit, in the PDF pool, and the copy kept here, as JSON from the value's
 * payload path (`fields[3].value.imageData`) to a data URL. The payload itself stays the text as received, so its
 * checksum can still be verified; the seal draws the copy. See `docs/decisions.md`, "Images the seal can draw".
 */
export const sealImages: Migration = {
  version: 7,
  name: 'seal copies of submitted images',
  up: () => `
    ALTER TABLE submissions ADD COLUMN seal_images TEXT;
  `,
};
