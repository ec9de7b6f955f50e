/**
 * The notice shown when the GPU device is lost (driver reset, GPU process crash, tab in the
 * background for too long): nothing on the device survives, so the page offers a restart,
 * which reloads it with the same URL (shape and simulation options included).
 */

export function showDeviceLost(reason: string, parent: HTMLElement = document.getElementById('notices') ?? document.body): HTMLDivElement {
  let notice = document.getElementById('device-lost') as HTMLDivElement | null;
  if (!notice) {
    notice = document.createElement('div');
    notice.id = 'device-lost';
    notice.className = 'notice';
    notice.setAttribute('role', 'alert');
    const text = document.createElement('span');
    text.className = 'message';
    const restart = document.createElement('button');
    restart.type = 'button';
    restart.id = 'device-lost-restart';
    restart.textContent = 'Restart';
    restart.addEventListener('click', () => window.location.reload());
    notice.append(text, restart);
    parent.appendChild(notice);
  }
  notice.querySelector('.message')!.textContent = `The GPU device was lost (${reason}); the simulation stopped. Restart to continue.`;
  notice.hidden = false;
  document.body.dataset.deviceLost = 'true';
  return notice;
}
