const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable="true"]';

/**
 * The elements of `root` that Tab can reach, in document order: enabled, not `tabindex="-1"`, and rendered (not
 * inside a hidden tab panel).
 * @example
 * const [first] = tabbableElements(dialog);
 * first?.focus();
 */
function tabbableElements(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) =>
      element.tabIndex >= 0 &&
      !(element as HTMLButtonElement).disabled &&
      // checkVisibility already excludes a hidden panel's contents (display: none); inertness it does not see.
      !element.closest('[inert]') &&
      element.checkVisibility({ visibilityProperty: true }),
  );
}

/**
 * Keeps Tab and Shift+Tab inside `root` by wrapping from its last tabbable element to its first and back. A modal
 * `<dialog>` makes the page inert but still lets Tab leave for the browser's toolbar (or the embedding page when
 * the viewer is in an iframe); this closes that gap. Returns whether it handled the key.
 * @example
 * <dialog onKeyDown={(event) => trapTab(event.nativeEvent, event.currentTarget)} />
 */
export function trapTab(event: KeyboardEvent, root: HTMLElement): boolean {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return false;
  const tabbable = tabbableElements(root);
  const at = tabbable.indexOf(root.ownerDocument.activeElement as HTMLElement);
  let target: HTMLElement | undefined;
  if (tabbable.length === 0) target = root;
  else if (event.shiftKey && at <= 0) target = tabbable[tabbable.length - 1];
  else if (!event.shiftKey && (at === -1 || at === tabbable.length - 1)) target = tabbable[0];
  if (!target) return false;
  event.preventDefault();
  target.focus();
  return true;
}
