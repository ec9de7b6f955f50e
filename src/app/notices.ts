/**
 * The page's messages: the error banner (#error-banner), the progress indicator (#progress)
 * and the no-WebGPU notice (#no-webgpu), all at the top of the page (#notices) with a close
 * button each. Stable ids so end-to-end tests can read them.
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

  /**
   * `kind`: 'error' (something was refused or failed; the default) or 'warning' (advice: the
   * setting is used, e.g. a stiffness the substeps do not resolve); data-kind says which.
   */
  show(message: string, options: { sticky?: boolean; kind?: 'error' | 'warning' } = {}): void {
    this.text.textContent = message;
    this.sticky = options.sticky ?? false;
    this.root.dataset.kind = options.kind ?? 'error';
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

/**
 * Says why the GPU solver cannot run here, and what still works. It sits with the other messages
 * at the top, not over the scene, and its close button puts it away (data-dismissed="true").
 */
export function showNoWebGpu(reason: string): void {
  const notice = element<HTMLDivElement>('no-webgpu');
  const text = notice.querySelector('.message') as HTMLSpanElement;
  // One short line; the rest behind "details", so the notice stays small at the top.
  text.textContent = 'The GPU solver needs WebGPU, which is missing here: the page simulates with the CPU reference solver and draws with WebGL 2. ';
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = 'details';
  details.append(
    summary,
    `${reason} The CPU reference solver runs in float64 in a worker, collides by DCD + shortest path, and the page picks smaller scene sizes for it. ` +
      'For the GPU solver use Chrome or Edge 113 or newer, or a recent Firefox or Safari with WebGPU enabled.',
  );
  text.append(details);
  notice.querySelector('.close')?.addEventListener('click', () => {
    notice.hidden = true;
    notice.dataset.dismissed = 'true';
  });
  notice.hidden = false;
  document.body.dataset.webgpu = 'unavailable';
}
