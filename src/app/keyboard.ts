/**
 * The page's keys (the help overlay lists them): Space runs or pauses, "." steps one frame, R
 * resets, F frames the scene, H or ? toggles the help, Esc closes it. Keys typed into a field
 * (the panel's inputs, menus) are left alone.
 */

export interface KeyActions {
  toggleRun(): void;
  step(): void;
  reset(): void;
  frameView(): void;
  toggleHelp(): void;
  closeHelp(): void;
}

/** The action a key stands for, or undefined. Pure, for the unit tests. */
export function actionOfKey(key: string, modifiers: { ctrl: boolean; meta: boolean; alt: boolean }): keyof KeyActions | undefined {
  if (modifiers.ctrl || modifiers.meta || modifiers.alt) return undefined;
  switch (key) {
    case ' ':
      return 'toggleRun';
    case '.':
      return 'step';
    case 'r':
    case 'R':
      return 'reset';
    case 'f':
    case 'F':
      return 'frameView';
    case 'h':
    case 'H':
    case '?':
      return 'toggleHelp';
    case 'Escape':
      return 'closeHelp';
    default:
      return undefined;
  }
}

function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName);
}

export function installKeys(actions: KeyActions, target: Window = window): () => void {
  const onKey = (event: KeyboardEvent): void => {
    if (typingInto(event.target)) return;
    const action = actionOfKey(event.key, { ctrl: event.ctrlKey, meta: event.metaKey, alt: event.altKey });
    if (!action) return;
    event.preventDefault();
    actions[action]();
  };
  target.addEventListener('keydown', onKey);
  return () => target.removeEventListener('keydown', onKey);
}
