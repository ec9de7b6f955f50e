/**
 * Mesh file import: the hidden file input (#mesh-file-input, multi-select so a TetGen
 * .node + .ele pair can be picked together) and drag-and-drop anywhere on the page.
 * Files are read as text here; parsing and validation happen in a worker.
 */
import type { MeshFileText } from '../workers/meshWorkerApi';

export const ACCEPTED_EXTENSIONS = ['.t', '.node', '.ele', '.msh', '.vtk'];

export interface FileImport {
  /** Opens the browser's file picker. */
  open(): void;
}

async function readAll(files: FileList | File[]): Promise<MeshFileText[]> {
  return Promise.all(Array.from(files, async (file) => ({ name: file.name, text: await file.text() })));
}

export function installFileImport(onFiles: (files: MeshFileText[]) => void): FileImport {
  const input = document.getElementById('mesh-file-input') as HTMLInputElement | null;
  if (!input) throw new Error('index.html is missing the element #mesh-file-input');
  const hint = document.getElementById('drop-hint');

  input.addEventListener('change', async () => {
    if (!input.files || input.files.length === 0) return;
    const files = await readAll(input.files);
    input.value = ''; // picking the same file again must fire 'change' again
    onFiles(files);
  });

  let depth = 0; // dragenter/dragleave fire for every child element crossed
  const hasFiles = (e: DragEvent): boolean => e.dataTransfer?.types.includes('Files') ?? false;
  window.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    depth += 1;
    if (hint) hint.hidden = false;
  });
  window.addEventListener('dragleave', (e) => {
    if (!hasFiles(e)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0 && hint) hint.hidden = true;
  });
  window.addEventListener('dragover', (e) => {
    if (hasFiles(e)) e.preventDefault(); // allow dropping
  });
  window.addEventListener('drop', async (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    if (hint) hint.hidden = true;
    const files = e.dataTransfer?.files;
    if (files && files.length > 0) onFiles(await readAll(files));
  });

  return { open: () => input.click() };
}
