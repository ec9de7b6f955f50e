/** Saves text as a file through the browser's download (a Blob behind an <a download> click). */

export function downloadText(fileName: string, text: string, mimeType: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked after the click has started the download (revoking at once can cancel it in some browsers).
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** "octopus-drop-2026-11-22T17-30-05" (the scene name made file-safe, then the local time). */
export function recordingBaseName(scene: string, when: Date): string {
  const safe = scene.replace(/[^A-Za-z0-9._-]+/g, '_') || 'recording';
  const p = (x: number): string => String(x).padStart(2, '0');
  return `${safe}-${when.getFullYear()}-${p(when.getMonth() + 1)}-${p(when.getDate())}T${p(when.getHours())}-${p(when.getMinutes())}-${p(when.getSeconds())}`;
}
