/**
 * The help overlay (#help): the mouse, the keys, the panel's main controls, and what every
 * readout and counter means. Opened by the "Help" button at the top of the panel (#help-open)
 * or the H / ? key, closed by its button, Esc or a click outside it. The text is data (HELP
 * below) so the unit tests can hold it against the counters the page prints.
 */

export interface HelpSection {
  title: string;
  rows: [string, string][];
}

export const HELP: readonly HelpSection[] = [
  {
    title: 'Mouse',
    rows: [
      ['drag', 'orbit the camera around the scene'],
      ['right-drag, or Ctrl + drag', 'pan'],
      ['wheel', 'zoom'],
      ['Shift + drag on an object', 'grab the surface vertex under the pointer and pull it while the simulation runs (GPU engine)'],
      ['drop files on the page', 'import a mesh: Gaia .t, TetGen .node + .ele, Gmsh .msh, VTK .vtk'],
    ],
  },
  {
    title: 'Keys',
    rows: [
      ['Space', 'Run / Pause (Pause lets the frame under way finish: the button reads "Pausing…" until then)'],
      ['. (period)', 'step one frame'],
      ['R', 'reset to the start, paused'],
      ['F', 'frame the scene (the camera looks at all of it, ground included)'],
      ['H or ?', 'this help'],
      ['Esc', 'close this help'],
    ],
  },
  {
    title: 'Readouts',
    rows: [
      ['status (top left)', 'what the page is doing; the spinner and the seconds count while a frame is under way; the scene\'s objects, vertices and tets; the engine; the lowest point; the frame time'],
      ['frame time, fps', 'wall time per simulated frame over the last frames (while running: from one frame landing to the next), and 1000 / frame time'],
      ['solver', 'the solver\'s own time per phase: GPU timestamps on a GPU, the CPU clock on the CPU engine; part of the frame time'],
      ['render', 'the page\'s drawing, per draw, on its own thread while the solver runs (not added to the frame time)'],
      ['chart (bottom left)', 'each frame\'s wall time split into material (XPBD), detect (DCD), shortest path, CCD, BVH and sync (submission, readbacks, waits); the legend shows the newest frame, or the one under the pointer'],
      ['Table 1', 'the paper\'s Table 1 for the frames shown, or for a finished recording'],
    ],
  },
  {
    title: 'Counters (timing panel, recordings)',
    rows: [
      ['contacts: DCD', 'contacts from the shortest path to the boundary of penetrating points this frame'],
      ['contacts: CCD', 'continuous-collision hits: a vertex crossing a triangle (vertex-face) or two edges crossing (edge-edge) within a substep'],
      ['DCD hits', 'points found inside a tet, self (same object) / inter (another object): vertices, edge points, and tet centroids (recovery mode)'],
      ['per query: Q, Tr, Tet', 'BVH candidate triangles, tet traversals and tets visited per shortest-path query (paper 000 Table 1)'],
      ['overflows: stack', 'queries that overflowed the GPU\'s fixed-size stacks; a CPU worker answers them for the next frame'],
      ['contacts dropped, CCD dropped', 'hits beyond the GPU buffers\' capacity this frame (the buffers grow for the next frame)'],
      ['escaped boxes', 'boundary vertices that left the swept box CCD\'s broad phase assumed for them (a rebound, a push): the next boxes get a wider margin, and DCD catches what CCD missed'],
      ['no path, skipped', 'queries that found no valid path; queries skipped at inverted boundary elements (paper 000 section 3.5)'],
    ],
  },
];

export interface HelpOverlay {
  readonly open: boolean;
  show(): void;
  hide(): void;
  toggle(): void;
}

export function createHelpOverlay(parent: HTMLElement = document.body): HelpOverlay {
  const root = document.createElement('div');
  root.id = 'help';
  root.hidden = true;
  root.setAttribute('role', 'dialog');
  root.setAttribute('aria-label', 'Help');
  const box = document.createElement('div');
  box.className = 'help-box';
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'close';
  close.id = 'help-close';
  close.setAttribute('aria-label', 'Close help');
  close.textContent = '×';
  const heading = document.createElement('h2');
  heading.textContent = 'Soft bodies: how to use this page';
  box.append(close, heading);
  for (const section of HELP) {
    const h = document.createElement('h3');
    h.textContent = section.title;
    const table = document.createElement('table');
    for (const [what, means] of section.rows) {
      const row = table.insertRow();
      const th = document.createElement('th');
      th.textContent = what;
      row.append(th);
      row.insertCell().textContent = means;
    }
    box.append(h, table);
  }
  root.append(box);
  parent.append(root);

  const overlay: HelpOverlay = {
    get open() {
      return !root.hidden;
    },
    show() {
      root.hidden = false;
      close.focus();
    },
    hide() {
      root.hidden = true;
    },
    toggle() {
      if (root.hidden) overlay.show();
      else overlay.hide();
    },
  };
  close.addEventListener('click', () => overlay.hide());
  root.addEventListener('click', (event) => {
    if (event.target === root) overlay.hide();
  });
  return overlay;
}
