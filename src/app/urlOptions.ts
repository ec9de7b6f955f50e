/**
 * Options read from the page URL: ?shape=<name>&resolution=<n>. They let a link (and the
 * end-to-end tests, which need small meshes on a software GPU) choose the first object.
 */
export interface UrlOptions {
  shape?: string;
  resolution?: number;
}

export function readUrlOptions(search: string): UrlOptions {
  const params = new URLSearchParams(search);
  const options: UrlOptions = {};
  const shape = params.get('shape');
  if (shape) options.shape = shape;
  const resolution = params.get('resolution');
  if (resolution !== null) {
    const n = Number(resolution);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`URL parameter resolution=${resolution} is not a positive number`);
    options.resolution = n;
  }
  return options;
}
