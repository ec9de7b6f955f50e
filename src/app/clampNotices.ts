/**
 * lil-gui keeps a typed number inside its control's range and on its step without a word
 * (gravity typed as -40 becomes -30). The page says so instead: every number control of the
 * panel (hooked once, also those added later) reports a typed value that was moved into the
 * range or onto the step, naming the control, the value typed and the value used.
 */
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';

/** What lil-gui's NumberController keeps (its fields are not in the typings). */
interface NumberControllerInternals {
  $input?: HTMLInputElement;
  _min?: number;
  _max?: number;
  _step?: number;
  _stepExplicit?: boolean;
}

export interface ControlRange {
  min?: number;
  max?: number;
  /** Only when the control snaps to it (lil-gui's explicit step). */
  step?: number;
}

/** The value a control of this range makes of `typed`: snapped to the step (counted from min, else max, as lil-gui does), then clamped. */
export function controlValue(typed: number, range: ControlRange): number {
  let v = typed;
  if (range.step !== undefined && range.step > 0) {
    const offset = range.min ?? range.max ?? 0;
    v = Math.round((v - offset) / range.step) * range.step + offset;
  }
  if (range.min !== undefined && v < range.min) v = range.min;
  if (range.max !== undefined && v > range.max) v = range.max;
  return v;
}

/**
 * What to tell the user when `typed` is not what a control of this range uses (undefined when it
 * is used as typed, up to rounding). Pure, for the unit tests.
 */
export function clampMessage(name: string, typed: number, range: ControlRange): string | undefined {
  if (!Number.isFinite(typed)) return undefined;
  const used = Number(controlValue(typed, range).toPrecision(12));
  if (Math.abs(typed - used) <= 1e-9 * Math.max(1, Math.abs(typed))) return undefined;
  const { min, max } = range;
  if ((min !== undefined && typed < min) || (max !== undefined && typed > max)) {
    const lo = min === undefined ? '-∞' : String(min);
    const hi = max === undefined ? '∞' : String(max);
    return `${name}: ${typed} is outside the control's range [${lo}, ${hi}]; ${used} is used instead.`;
  }
  return `${name}: ${typed} is not a multiple of the control's step ${range.step}; ${used} is used instead.`;
}

const hooked = new WeakSet<Controller>();

/** Hooks every number control under `gui` not hooked yet; `say` shows the message (the error banner). */
export function reportClamps(gui: GUI, say: (message: string) => void): void {
  for (const c of gui.controllersRecursive()) {
    const internals = c as unknown as NumberControllerInternals;
    const input = internals.$input;
    if (hooked.has(c) || !input || typeof c.getValue() !== 'number') continue;
    hooked.add(c);
    let typed: number | undefined;
    // Registered after lil-gui's own listeners, so these run after it has clamped and snapped.
    input.addEventListener('input', () => {
      const value = parseFloat(input.value);
      typed = Number.isNaN(value) ? undefined : value;
    });
    input.addEventListener('blur', () => {
      if (typed === undefined) return;
      const value = typed;
      typed = undefined;
      const step = internals._stepExplicit ? internals._step : undefined;
      const message = clampMessage(c.$name.textContent ?? c.property, value, { min: internals._min, max: internals._max, step });
      if (message) say(message);
    });
  }
}
