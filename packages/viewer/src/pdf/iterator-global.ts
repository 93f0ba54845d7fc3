/*
 * pdf.js 6 reads the `Iterator` global as it loads (to add `Iterator.prototype.join`), and Node has that global only
 * from version 22. A server that renders a page holding the viewer (Next.js on Node 20) imports pdf.js without using
 * it, and failed there with "Iterator is not defined". Where it is missing, this defines it as the language does:
 * a function whose prototype is %IteratorPrototype%, which every built-in iterator inherits. Browsers that run the
 * viewer have it already, so nothing changes for them. Imported ahead of pdf.js by each module that loads it.
 */
if (typeof (globalThis as { Iterator?: unknown }).Iterator === 'undefined') {
  const iteratorPrototype: object = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
  const Iterator = function Iterator() {} as unknown as { prototype: object };
  Iterator.prototype = iteratorPrototype;
  Object.defineProperty(globalThis, 'Iterator', { value: Iterator, writable: true, configurable: true });
}

export {};
