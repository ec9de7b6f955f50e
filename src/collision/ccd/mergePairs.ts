/**
 * The merge of two lists of pairs, each sorted by (first, second) with no pair in both: one list
 * in that order (the standard two-way merge, O(a + b)). A kept same-object list that its join
 * split into the pairs outside and within culled nodes (sortedSelfJoin.ts `culledOut`) is made
 * whole again this way before it is read as a kept list (ownPairCache.ts).
 */
export function mergePairs(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0, j = 0, k = 0;
  while (i < a.length && j < b.length) {
    const aFirst = a[i] < b[j] || (a[i] === b[j] && a[i + 1] < b[j + 1]);
    const from = aFirst ? a : b, at = aFirst ? i : j;
    out[k] = from[at];
    out[k + 1] = from[at + 1];
    k += 2;
    if (aFirst) i += 2;
    else j += 2;
  }
  out.set(a.subarray(i), k);
  out.set(b.subarray(j), k + a.length - i);
  return out;
}
