import { defineBuilderElement } from './builder-element.js';

export { defineBuilderElement, type BuilderElement } from './builder-element.js';
export { mountBuilder, type BuilderMountProps, type MountedBuilder } from './builder-mount.js';
export type { SignetBuilderEventMap } from './builder-events.js';

// Importing `@signet/embed/builder` defines `<signet-builder>` (where there is a DOM; a server rendering skips it).
defineBuilderElement();
