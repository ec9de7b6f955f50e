/**
 * The timing chart's time axis: 2 to 5 ticks from 0 on 1-2-5 steps, labelled
 * "500 ms" or "1.5 s" (a frame takes milliseconds on a GPU and seconds on a software adapter).
 * No DOM here.
 */

/**
 * Tick values of the time axis from 0 to at most `max`: the step is the smallest of 1, 2 or 5
 * times a power of ten that is at least max / 4, so there are 2 to 5 ticks (never just "0").
 */
export function timeAxisSplits(max: number): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0];
  const quarter = max / 4;
  const p = 10 ** Math.floor(Math.log10(quarter));
  const step = [1, 2, 5, 10].map((m) => m * p).find((x) => x >= quarter * (1 - 1e-12)) ?? 10 * p;
  const out: number[] = [];
  for (let k = 0; k * step <= max * (1 + 1e-9); k++) out.push(k * step);
  return out;
}

/** Short time labels for the axis: "500 ms", "1.5 s". */
export function shortMs(ms: number): string {
  if (ms === 0) return '0';
  if (ms >= 1000) return `${Number((ms / 1000).toPrecision(3))} s`;
  return `${Number(ms.toPrecision(3))} ms`;
}
