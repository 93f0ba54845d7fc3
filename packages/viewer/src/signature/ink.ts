/** The ink colour of drawn and typed signatures: a blue-black, like a ballpoint pen (and legible on any page). */
export const INK_COLOR = '#14213d';
