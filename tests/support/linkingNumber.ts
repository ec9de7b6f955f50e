/**
 * Gauss linking number of two closed polygons, exact per segment pair: the signed solid angle
 * each pair of segments subtends, summed and divided by 4 pi (Klenin and Langowski 2000, the
 * quadrilateral formula). An integer for disjoint closed curves; it changes only when one curve
 * passes through the other, which is the independent truth the twisted-beam test uses: with its
 * ends held, a beam that never passes through itself keeps Lk = twist + writhe fixed up to the
 * turns its handle adds (Calugareanu-White).
 */
export type Point3 = readonly [number, number, number];

function sub(a: Point3, b: Point3): [number, number, number] { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
function cross(a: Point3, b: Point3): [number, number, number] { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
function dot(a: Point3, b: Point3): number { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
function unit(a: Point3): Point3 { const l = Math.hypot(a[0], a[1], a[2]); return l > 0 ? [a[0] / l, a[1] / l, a[2] / l] : [0, 0, 0]; }
function asinClamped(x: number): number { return Math.asin(Math.max(-1, Math.min(1, x))); }

/** Linking number of closed polygons a and b (each given with its last point equal to its first). */
export function linkingNumber(a: readonly Point3[], b: readonly Point3[]): number {
  let sum = 0;
  for (let i = 0; i + 1 < a.length; i++) {
    for (let j = 0; j + 1 < b.length; j++) {
      const p1 = a[i], p2 = a[i + 1], p3 = b[j], p4 = b[j + 1];
      const r13 = sub(p3, p1), r14 = sub(p4, p1), r23 = sub(p3, p2), r24 = sub(p4, p2);
      const n1 = unit(cross(r13, r14)), n2 = unit(cross(r14, r24)), n3 = unit(cross(r24, r23)), n4 = unit(cross(r23, r13));
      const omega = asinClamped(dot(n1, n2)) + asinClamped(dot(n2, n3)) + asinClamped(dot(n3, n4)) + asinClamped(dot(n4, n1));
      sum += omega * Math.sign(dot(cross(sub(p4, p3), sub(p2, p1)), r13));
    }
  }
  return sum / (4 * Math.PI);
}
