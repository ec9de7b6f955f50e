/**
 * The runner's --tets N: the scene's size (SceneSize: resolution or copies) whose tet count is
 * nearest N. Counts rise with the size (more copies, a finer lattice), so the search keeps a
 * bracket lo < N <= hi over the sizes on the scene's step and probes by interpolating log tets
 * against log size (copies: linear, lattices: about cubic), with a bisection every third probe
 * so that a badly predicted count still takes O(log range) builds. Each probe is a build of
 * the scene (seconds at 1M tets), so the count function is memoised.
 */
import type { SceneSize } from '../scenes/types';

export interface TetsChoice {
  size: number;
  tets: number;
  /** Sizes built to find it (the count function's calls). */
  probes: number;
}

/** N outside the counts the scene's size range reaches. */
export class TetsRangeError extends RangeError {
  override name = 'TetsRangeError';
}

export function sizeForTets(scene: string, range: Pick<SceneSize, 'min' | 'max' | 'step' | 'option'>, target: number, tetsAt: (size: number) => number): TetsChoice {
  if (!(Number.isFinite(target) && target >= 1)) throw new RangeError(`tets ${target}: must be a number >= 1`);
  const sizeOf = (k: number): number => range.min + k * range.step;
  const K = Math.floor((range.max - range.min) / range.step);
  const memo = new Map<number, number>();
  const at = (k: number): number => {
    let t = memo.get(k);
    if (t === undefined) {
      t = tetsAt(sizeOf(k));
      memo.set(k, t);
    }
    return t;
  };
  const outside = (): TetsRangeError =>
    new TetsRangeError(`--tets ${target}: scene ${scene} reaches ${at(0)} tets (size ${range.min}) to ${at(K)} tets (size ${sizeOf(K)}); give a count in that range`);

  let lo = 0;
  const tlo0 = at(0);
  // Below the smallest size the refusal needs that count only: building the largest to name it
  // (1M tets on octopus-box: 8 s, and 95 s with a material given before setObjectMaterials) kept a
  // user waiting to hear that their count was too small.
  if (target < tlo0) {
    throw new TetsRangeError(`--tets ${target}: scene ${scene} starts at ${tlo0} tets (size ${range.min}, its smallest; the largest is size ${sizeOf(K)}); give a count of at least ${tlo0}`);
  }
  if (target === tlo0 || K === 0) {
    if (target > tlo0) throw outside();
    return { size: range.min, tets: tlo0, probes: memo.size };
  }
  let tlo = tlo0;
  let hi = K;
  let thi: number | undefined;
  const exponent = range.option === 'copies' ? 1 : 3;
  // A count the first guess puts at or past the largest size: build the largest first. Above the
  // range that is the one build the refusal needs (the bracket search built the size below it
  // first: two builds of about 1M tets on octopus-box); within it, it closes the bracket.
  if (Math.round((sizeOf(0) * Math.pow(target / tlo0, 1 / exponent) - range.min) / range.step) >= K) {
    thi = at(K);
    if (target > thi) throw outside();
  }
  for (let probe = 1; hi - lo > 1; probe++) {
    let k: number;
    if (probe % 3 === 0) {
      k = Math.floor((lo + hi) / 2);
    } else {
      const s0 = sizeOf(lo);
      let guess: number;
      if (thi === undefined || thi === tlo) guess = s0 * Math.pow(target / tlo, 1 / exponent);
      else {
        // Interpolate log t against log size between the bracket's ends.
        const s1 = sizeOf(hi);
        const f = Math.log(target / tlo) / Math.log(thi / tlo);
        guess = Math.exp(Math.log(s0) + f * (Math.log(s1) - Math.log(s0)));
      }
      k = Math.round((guess - range.min) / range.step);
    }
    k = Math.min(hi - 1, Math.max(lo + 1, k));
    const t = at(k);
    if (t < target) {
      lo = k;
      tlo = t;
    } else {
      hi = k;
      thi = t;
    }
  }
  thi ??= at(hi);
  if (target > thi) throw outside();
  const useHi = thi - target < target - tlo;
  return useHi ? { size: sizeOf(hi), tets: thi, probes: memo.size } : { size: sizeOf(lo), tets: tlo, probes: memo.size };
}
