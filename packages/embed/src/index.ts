import { defineSigningViewerElement } from './element.js';

export { defineSigningViewerElement, type SigningViewerElement } from './element.js';
export { mount, type MountProps, type MountedViewer } from './mount.js';
export type { SignetEventMap } from './events.js';

// Importing the package defines `<signet-signing-viewer>` (where there is a DOM; a server rendering skips it).
defineSigningViewerElement();
