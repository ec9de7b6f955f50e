/**
 * The page's messages: the error banner (#error-banner), the progress indicator (#progress)
 * and the no-WebGPU notice (#no-webgpu). Stable ids so end-to-end tests can read them.
 */

function element<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`index.html is missing the element #${id}`);
  return el as T;
}

export class ErrorBanner {
  private readonly root = element<HTMLDivElement>('error-banner');
  private readonly text = this.root.querySelector('.message') as HTMLSpanElement;
  /** A sticky message (bad URL) stays until dismissed; others go when the next job succeeds. */
  private sticky = false;

  constructor() {
    this.root.querySelector('.close')?.addEventListener('click', () => this.dismiss());
  }

  show(message: string, options: { sticky?: boolean } = {}): void {
    this.text.textContent = message;
    this.sticky = options.sticky ?? false;
    this.root.hidden = false;
  }

  /** Clears a non-sticky message (called when a later request succeeds). */
  clear(): void {
    if (!this.sticky) this.dismiss();
  }

  dismiss(): void {
    this.text.textContent = '';
    this.sticky = false;
    this.root.hidden = true;
  }
}

export class ProgressIndicator {
  private readonly root = element<HTMLDivElement>('progress');
  private readonly label = this.root.querySelector('.label') as HTMLSpanElement;
  private readonly bar = this.root.querySelector('progress') as HTMLProgressElement;

  /** Shows `label` with an indeterminate bar until the first update(). */
  start(label: string): void {
    this.label.textContent = label;
    this.bar.removeAttribute('value');
    this.root.dataset.fraction = '0.000';
    this.root.dataset.state = 'busy';
    this.root.hidden = false;
  }

  update(fraction: number): void {
    this.bar.value = Math.min(1, Math.max(0, fraction));
    this.root.dataset.fraction = this.bar.value.toFixed(3);
  }

  done(): void {
    this.root.dataset.state = 'idle';
    this.root.hidden = true;
  }
}

/** Replaces the page's content with the reason the simulator cannot run here. */
export function showNoWebGpu(reason: string): void {
  const notice = element<HTMLDivElement>('no-webgpu');
  notice.textContent =
    `This simulator needs WebGPU. ${reason} ` +
    'Use Chrome or Edge 113 or newer, or a recent Firefox or Safari with WebGPU enabled.';
  notice.hidden = false;
  document.body.dataset.webgpu = 'unavailable';
}
