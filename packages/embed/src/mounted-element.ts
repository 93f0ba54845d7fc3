/** What a Signet custom element renders into itself: a mounted React tree it can update and remove. */
export interface Mounted<Props> {
  update(props: Props): void;
  unmount(): void;
}

/** How a Signet custom element maps its attributes and property-only members to a mounted tree. */
export interface MountedElementSpec<Props> {
  /** Each attribute and the camelCase property that reflects it as a string. */
  attributes: Readonly<Record<string, string>>;
  /** Members set as properties only (objects an attribute cannot hold); setting one renders again. */
  properties: readonly string[];
  /** The props to render with, read from the element's attributes and `properties`; undefined: nothing to show. */
  props(element: HTMLElement, properties: ReadonlyMap<string, unknown>): Props | undefined;
  mount(element: HTMLElement, props: Props): Mounted<Props>;
}

/**
 * The class of a custom element that renders `spec.mount`'s tree once its props are complete, again (once) after any
 * number of attribute or property changes in a row, and removes it when disconnected. Properties a framework set
 * before the element was defined are taken over. A function, not a class at module level: where there is no DOM
 * (a server rendering the page) `HTMLElement` does not exist.
 * @example customElements.define('signet-signing-viewer', createMountedElementClass({ attributes, properties: ['messages'], props, mount }));
 */
export function createMountedElementClass<Props>(spec: MountedElementSpec<Props>): CustomElementConstructor {
  const reflected = Object.values(spec.attributes);
  // Each element's property-only members, kept off its public surface.
  const stored = new WeakMap<HTMLElement, Map<string, unknown>>();
  const propertiesOf = (element: HTMLElement) => {
    let properties = stored.get(element);
    if (!properties) stored.set(element, (properties = new Map()));
    return properties;
  };
  class SignetMountedElement extends HTMLElement {
    static observedAttributes = Object.keys(spec.attributes);
    #mounted: Mounted<Props> | undefined;
    #renderQueued = false;

    connectedCallback() {
      // A framework may have set properties before the element was defined: they shadow the accessors until moved.
      for (const property of [...reflected, ...spec.properties]) {
        if (Object.hasOwn(this, property)) {
          const value = (this as unknown as Record<string, unknown>)[property];
          delete (this as unknown as Record<string, unknown>)[property];
          (this as unknown as Record<string, unknown>)[property] = value;
        }
      }
      this.#queueRender();
    }

    disconnectedCallback() {
      this.#mounted?.unmount();
      this.#mounted = undefined;
    }

    attributeChangedCallback() {
      this.#queueRender();
    }

    queueRender() {
      this.#queueRender();
    }

    // Several attributes set one after another (as a framework does) render once.
    #queueRender() {
      if (this.#renderQueued) return;
      this.#renderQueued = true;
      queueMicrotask(() => {
        this.#renderQueued = false;
        this.#render();
      });
    }

    #render() {
      if (!this.isConnected) return;
      const props = spec.props(this, propertiesOf(this));
      if (!props) {
        this.#mounted?.unmount();
        this.#mounted = undefined;
      } else if (this.#mounted) this.#mounted.update(props);
      else this.#mounted = spec.mount(this, props);
    }
  }
  for (const [attribute, property] of Object.entries(spec.attributes)) {
    Object.defineProperty(SignetMountedElement.prototype, property, {
      configurable: true,
      enumerable: true,
      get(this: HTMLElement) {
        return this.getAttribute(attribute);
      },
      set(this: HTMLElement, value: string | null | undefined) {
        if (value === null || value === undefined) this.removeAttribute(attribute);
        else this.setAttribute(attribute, String(value));
      },
    });
  }
  for (const property of spec.properties) {
    Object.defineProperty(SignetMountedElement.prototype, property, {
      configurable: true,
      enumerable: true,
      get(this: SignetMountedElement) {
        return propertiesOf(this).get(property);
      },
      set(this: SignetMountedElement, value: unknown) {
        propertiesOf(this).set(property, value);
        this.queueRender();
      },
    });
  }
  return SignetMountedElement;
}

/**
 * Defines `tagName` with the class `create` makes unless it is already defined, and returns its class; does nothing
 * where there is no DOM, so importing an element's module there is safe.
 */
export function defineMountedElement(tagName: string, create: () => CustomElementConstructor): CustomElementConstructor | undefined {
  if (typeof HTMLElement === 'undefined' || typeof customElements === 'undefined') return undefined;
  const existing = customElements.get(tagName);
  if (existing) return existing;
  const elementClass = create();
  customElements.define(tagName, elementClass);
  return elementClass;
}
