import { tabbable } from 'tabbable';

/**
 * Keeps Tab and Shift+Tab inside `root` by wrapping from its last tabbable element to its first and back. A modal
 * `<dialog>` makes the page inert but still lets Tab leave for the browser's toolbar (or the embedding page when
 * the viewer is in an iframe); this closes that gap. What Tab can reach (enabled, not `tabindex="-1"`, not inert,
 * rendered: not inside a hidden tab panel) is `tabbable`'s to decide, with its default display check, which works
 * without `Element.checkVisibility` (Safari before 17.4 has none). WebKitGTK names Shift+Tab's key "Unidentified"
 * (GTK's ISO_Left_Tab) while its `code` stays "Tab", so the physical key counts too. Returns whether it handled the key.
 * @example
 * <dialog onKeyDown={(event) => trapTab(event.nativeEvent, event.currentTarget)} />
 */
export function trapTab(event: KeyboardEvent, root: HTMLElement): boolean {
  if (!isTab(event) || event.altKey || event.ctrlKey || event.metaKey) return false;
  const reachable = tabbable(root);
  const active = root.ownerDocument.activeElement;
  const at = reachable.findIndex((element) => element === active);
  let target: HTMLElement | SVGElement | undefined;
  if (reachable.length === 0) target = root;
  else if (event.shiftKey && at <= 0) target = reachable[reachable.length - 1];
  else if (!event.shiftKey && (at === -1 || at === reachable.length - 1)) target = reachable[0];
  if (!target) return false;
  event.preventDefault();
  target.focus();
  return true;
}

function isTab(event: KeyboardEvent): boolean {
  return event.key === 'Tab' || (event.key === 'Unidentified' && event.code === 'Tab');
}
