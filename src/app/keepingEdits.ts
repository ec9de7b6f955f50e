/**
 * Panel refreshes that leave a control being edited alone.
 *
 * A panel refresh writes the simulation's values into the objects its lil-gui controls edit and
 * redraws them. lil-gui keeps a focused input's text, but the value it finishes with on Enter or
 * blur is the object's property: a refresh that lands between typing and Enter (any change the
 * page publishes, e.g. a frame landing while the simulation runs) put the old value back, and Enter
 * then applied the old value while the typed one was lost (seen once in the end-to-end suite: gravity
 * read -9.81 after -40 was typed, a frame of the scene before having landed in between).
 */
import type GUI from 'lil-gui';

/**
 * Runs `assign` (which writes the panel's state), then puts back the value of every control under
 * `folder` whose element holds the focus, as it was before.
 */
export function keepingEdits(folder: GUI, assign: () => void): void {
  const focused = typeof document === 'undefined' ? null : document.activeElement;
  const kept: { object: Record<string, unknown>; property: string; value: unknown }[] = [];
  if (focused) {
    for (const c of folder.controllersRecursive()) {
      if (!c.domElement.contains(focused)) continue;
      const object = c.object as Record<string, unknown>;
      kept.push({ object, property: c.property, value: object[c.property] });
    }
  }
  assign();
  for (const { object, property, value } of kept) object[property] = value;
}
