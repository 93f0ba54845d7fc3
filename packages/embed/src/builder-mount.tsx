import { SigningBuilder, type SigningBuilderProps } from '@signet/viewer/builder';
import { builderEventCallbacks } from './builder-events.js';
import { mountInShadow } from './mount.js';

/** What `mountBuilder` renders: the `<SigningBuilder>` props (callbacks optional: the element gets DOM events too). */
export type BuilderMountProps = Omit<SigningBuilderProps, 'queryClient'>;

/** A builder mounted by `mountBuilder`. */
export interface MountedBuilder {
  /** Renders the builder again with these props merged over the current ones. */
  update(props: Partial<BuilderMountProps>): void;
  /** Unmounts the builder and empties the shadow root it rendered in. */
  unmount(): void;
}

/**
 * Renders Signet's builder into `element`'s shadow root (opened if the element has none), with its styles inside
 * that root, and dispatches the `signet:*` events of `SignetBuilderEventMap` on `element`. `<signet-builder>` is
 * built on it, as `<signet-signing-viewer>` is on `mount`.
 * @example
 * const builder = mountBuilder(document.querySelector('#author')!, { documentId: 'doc_…', apiKey: builderKey, allowSend: true });
 * builder.update({ locale: 'fr' });
 */
export function mountBuilder(element: HTMLElement, props: BuilderMountProps): MountedBuilder {
  return mountInShadow(element, props, (current) => <SigningBuilder {...current} {...builderEventCallbacks(element, current)} />);
}
