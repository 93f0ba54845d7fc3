/** Never embed a signature image larger than this on either side, whatever the box (pixels). */
export const MAX_SIDE_PX = 2000;
/** Bits a sample of an image the seal embeds as it is; deeper ones are normalised at submit. */
export const BITS_PER_SAMPLE = 8;
