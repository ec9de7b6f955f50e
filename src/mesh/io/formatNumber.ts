/**
 * Shortest decimal text that reads back to the same float32: writers round-trip exactly
 * without printing 17-digit doubles for every coordinate.
 */
export function formatFloat32(x: number): string {
  const f = Math.fround(x);
  if (f === 0) return '0';
  for (let digits = 6; digits < 9; digits++) {
    const text = Number(f.toPrecision(digits)).toString();
    if (Math.fround(Number(text)) === f) return text;
  }
  return Number(f.toPrecision(9)).toString();
}
