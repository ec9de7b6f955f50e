/**
 * Model: the static data of a scene's soft bodies (Warp's Model): topology, rest shape,
 * masses, materials, constraint colouring and the vertex->constraint maps of the Jacobi
 * gather. Many objects share one set of arrays; every vertex and tet carries its object id.
 * Everything here is float64 / CPU side; gpuModel.ts uploads it.
 */
import { greedyColouring, type Colouring } from '../mesh/colouring';
import { partitionedColouring, type PartitionedColouring } from '../mesh/partitionedColouring';
import { lameFromYoung, neoHookeanConstants, neoHookeanLame, type Lame, type Material } from './material';
import { computeRestShapeCpu } from './restShapeCpu';
import { relativeTetQuality, sliversBelow } from '../mesh/tetQuality';
import { defaultParams, type PartitionBalance } from '../contract/params';
import { raiseLightVertices } from './vertexMassFloor';
import { vertexIncidence } from '../mesh/vertexIncidence';

export interface SimObjectDesc {
  name: string;
  /** xyz per vertex, rest (and initial) positions in world space. */
  positions: ArrayLike<number>;
  /** 4 vertex ids per tet, positively oriented. */
  tets: ArrayLike<number>;
  material: Material;
  /**
   * Optional kinematic handle per vertex (-1 = free). A vertex on handle h follows
   * handle h's scripted affine motion of its rest position and has inverse mass 0.
   */
  handleOfVertex?: Int32Array;
  /** Optional initial velocity of the whole object. */
  velocity?: readonly [number, number, number];
}

export interface Model {
  readonly vertexCount: number;
  readonly tetCount: number;
  readonly edgeCount: number;
  readonly objectNames: readonly string[];
  /** Objects own contiguous ranges: [vertexOffsets[o], vertexOffsets[o+1]). */
  readonly objectVertexOffsets: Uint32Array;
  readonly objectTetOffsets: Uint32Array;
  readonly restPositions: Float64Array;
  readonly initialVelocities: Float64Array;
  readonly vertexObject: Uint32Array;
  readonly handleOfVertex: Int32Array;
  readonly tets: Uint32Array;
  readonly tetObject: Uint32Array;
  /** 9 per tet, column-major Dm^-1 (restShapeCpu.ts). */
  readonly dmInv: Float64Array;
  readonly restVolume: Float64Array;
  /** 2 per edge (unique tet edges, smaller id first) and rest lengths. */
  readonly edges: Uint32Array;
  readonly edgeRestLength: Float64Array;
  /** Per edge: 1 / mean number of edges at its 2 vertices (the Jacobi step scale, see tetConstants). */
  readonly edgeJacobiScale: Float64Array;
  readonly tetColouring: Colouring;
  readonly edgeColouring: Colouring;
  /**
   * The same constraints in partitioned Gauss-Seidel order (partitionedColouring.ts), cells from the
   * initial positions; rebuilt by setPartitionBalance when SolverParams.partitionBalance changes.
   */
  tetPartition: PartitionedColouring;
  edgePartition: PartitionedColouring;
  /** CSR: per vertex, the tet corners 4t+k that name it (Jacobi gather). */
  readonly vertexTetOffsets: Uint32Array;
  readonly vertexTetCorners: Uint32Array;
  /** CSR: per vertex, the edge ends 2e+k that name it. */
  readonly vertexEdgeOffsets: Uint32Array;
  readonly vertexEdgeCorners: Uint32Array;
  /** Per-object material; derived per-tet constants and inverse masses follow it (setMaterial). */
  readonly materials: Material[];
  /**
   * 4 per tet: alphaD, alphaH, alpha (material.ts) and the Jacobi step scale: 1 / the mean
   * number of tets at its 4 vertices. Jacobi scales each constraint's multiplier step and
   * its corrections by it and sums the corrections per vertex: about an average, but the
   * positions stay consistent with the multipliers (averaging positions only converges to
   * a solution with heavier vertices; averaging both stalls).
   */
  readonly tetConstants: Float64Array;
  readonly invMass: Float64Array;
  /** Per tet, its rest quality over its object's median (mesh/tetQuality.ts). */
  readonly relativeQuality: Float64Array;
  /**
   * SolverParams.sliverQuality the tet constants were made with: tets of relative quality below it
   * carry SLIVER_STIFFNESS of their stiffness (updateMaterialData; the solvers set it from their params).
   */
  sliverQuality: number;
  /**
   * SolverParams.vertexMassFloor the inverse masses were made with (vertexMassFloor.ts; updateMaterialData;
   * the solvers set it from their params).
   */
  vertexMassFloor: number;
  /** SolverParams.partitionBalance the partitions were built with (setPartitionBalance; the solvers set it from their params). */
  partitionBalance: PartitionBalance;
}

/**
 * The share of its stiffness a sliver tet keeps (SolverParams.sliverQuality): its compliances are
 * divided by it. Not 0: the f32 kernels then never meet an infinite compliance; its energy and
 * its pull on its corners are a millionth of a tet's.
 */
export const SLIVER_STIFFNESS = 1e-6;

/** The tets the model treats as slivers (relative quality below model.sliverQuality), ascending. */
export function sliverTets(model: Model): number[] {
  return sliversBelow(model.relativeQuality, model.sliverQuality);
}

/** Sets the sliver threshold (SolverParams.sliverQuality) and, when it changes, the tet constants; true when it changed them. */
export function setSliverQuality(model: Model, quality: number): boolean {
  if (quality === model.sliverQuality) return false;
  model.sliverQuality = quality;
  updateMaterialData(model);
  return true;
}

/**
 * Rebuilds the tet and edge partitions with pass rule `balance` (SolverParams.partitionBalance)
 * when it differs from the one they were built with; true when it rebuilt them. Vertices held by
 * handles are fixed, as in buildModel.
 */
export function setPartitionBalance(model: Model, balance: PartitionBalance): boolean {
  if (balance === model.partitionBalance) return false;
  const fixed = Uint8Array.from({ length: model.vertexCount }, (_, v) => (model.handleOfVertex[v] >= 0 ? 1 : 0));
  model.tetPartition = partitionedColouring(model.tets, 4, model.restPositions, model.vertexCount, fixed, { balance });
  model.edgePartition = partitionedColouring(model.edges, 2, model.restPositions, model.vertexCount, fixed, { balance });
  model.partitionBalance = balance;
  return true;
}

/** Unique edges of the tets (sorted by key), each as (min, max). */
function tetEdges(tets: Uint32Array, vertexCount: number): Uint32Array {
  const pairs = [0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3];
  const tetCount = tets.length / 4;
  const keys = new Float64Array(6 * tetCount);
  for (let t = 0; t < tetCount; t++) {
    for (let p = 0; p < 6; p++) {
      const a = tets[4 * t + pairs[2 * p]];
      const b = tets[4 * t + pairs[2 * p + 1]];
      keys[6 * t + p] = Math.min(a, b) * vertexCount + Math.max(a, b);
    }
  }
  keys.sort();
  let unique = 0;
  for (let i = 0; i < keys.length; i++) if (i === 0 || keys[i] !== keys[i - 1]) keys[unique++] = keys[i];
  const edges = new Uint32Array(2 * unique);
  for (let i = 0; i < unique; i++) {
    edges[2 * i] = Math.floor(keys[i] / vertexCount);
    edges[2 * i + 1] = keys[i] - edges[2 * i] * vertexCount;
  }
  return edges;
}

export function buildModel(objects: readonly SimObjectDesc[]): Model {
  if (objects.length === 0) throw new Error('buildModel: a scene needs at least one object');
  let vertexCount = 0;
  let tetCount = 0;
  const objectVertexOffsets = new Uint32Array(objects.length + 1);
  const objectTetOffsets = new Uint32Array(objects.length + 1);
  objects.forEach((o, i) => {
    if (o.positions.length % 3 !== 0) throw new Error(`object ${i} (${o.name}): positions length ${o.positions.length} is not a multiple of 3`);
    if (o.tets.length % 4 !== 0) throw new Error(`object ${i} (${o.name}): tets length ${o.tets.length} is not a multiple of 4`);
    vertexCount += o.positions.length / 3;
    tetCount += o.tets.length / 4;
    objectVertexOffsets[i + 1] = vertexCount;
    objectTetOffsets[i + 1] = tetCount;
  });
  const restPositions = new Float64Array(3 * vertexCount);
  const initialVelocities = new Float64Array(3 * vertexCount);
  const vertexObject = new Uint32Array(vertexCount);
  const handleOfVertex = new Int32Array(vertexCount).fill(-1);
  const tets = new Uint32Array(4 * tetCount);
  const tetObject = new Uint32Array(tetCount);
  objects.forEach((o, i) => {
    const v0 = objectVertexOffsets[i];
    const n = objectVertexOffsets[i + 1] - v0;
    for (let k = 0; k < 3 * n; k++) restPositions[3 * v0 + k] = o.positions[k];
    if (o.velocity) for (let v = 0; v < n; v++) for (let k = 0; k < 3; k++) initialVelocities[3 * (v0 + v) + k] = o.velocity[k];
    vertexObject.fill(i, v0, v0 + n);
    if (o.handleOfVertex) {
      if (o.handleOfVertex.length !== n) throw new Error(`object ${i} (${o.name}): handleOfVertex has ${o.handleOfVertex.length} entries for ${n} vertices`);
      handleOfVertex.set(o.handleOfVertex, v0);
    }
    const t0 = objectTetOffsets[i];
    for (let k = 0; k < o.tets.length; k++) {
      const id = o.tets[k];
      if (!(id >= 0 && id < n)) throw new Error(`object ${i} (${o.name}): tet ${Math.floor(k / 4)} names vertex ${id}, but the object has ${n} vertices`);
      tets[4 * t0 + k] = id + v0;
    }
    tetObject.fill(i, t0, objectTetOffsets[i + 1]);
  });
  const { dmInv, volume } = computeRestShapeCpu(restPositions, tets);
  for (let t = 0; t < tetCount; t++) {
    if (!(volume[t] > 0)) {
      const o = tetObject[t];
      throw new Error(`object ${o} (${objects[o].name}): tet ${t - objectTetOffsets[o]} is inverted (rest volume ${volume[t]}); orient tets so det[b-a, c-a, d-a] > 0`);
    }
  }
  const edges = tetEdges(tets, vertexCount);
  const edgeCount = edges.length / 2;
  const edgeRestLength = new Float64Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) {
    const a = edges[2 * e], b = edges[2 * e + 1];
    edgeRestLength[e] = Math.hypot(
      restPositions[3 * a] - restPositions[3 * b],
      restPositions[3 * a + 1] - restPositions[3 * b + 1],
      restPositions[3 * a + 2] - restPositions[3 * b + 2],
    );
  }
  const fixed = new Uint8Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) fixed[v] = handleOfVertex[v] >= 0 ? 1 : 0;
  // Per vertex its tet corners (4 t + k) and edge ends (2 e + k): arity 1, each corner its own entry.
  const tetCsr = vertexIncidence(tets, 1, vertexCount);
  const edgeCsr = vertexIncidence(edges, 1, vertexCount);
  const edgeJacobiScale = new Float64Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) {
    const a = edges[2 * e], b = edges[2 * e + 1];
    const n = edgeCsr.offsets[a + 1] - edgeCsr.offsets[a] + edgeCsr.offsets[b + 1] - edgeCsr.offsets[b];
    edgeJacobiScale[e] = 2 / n;
  }
  const model: Model = {
    vertexCount,
    tetCount,
    edgeCount,
    objectNames: objects.map((o) => o.name),
    objectVertexOffsets,
    objectTetOffsets,
    restPositions,
    initialVelocities,
    vertexObject,
    handleOfVertex,
    tets,
    tetObject,
    dmInv,
    restVolume: volume,
    edges,
    edgeRestLength,
    edgeJacobiScale,
    tetColouring: greedyColouring(tets, 4, vertexCount, fixed),
    edgeColouring: greedyColouring(edges, 2, vertexCount, fixed),
    tetPartition: partitionedColouring(tets, 4, restPositions, vertexCount, fixed, { balance: defaultParams({}).partitionBalance }),
    edgePartition: partitionedColouring(edges, 2, restPositions, vertexCount, fixed, { balance: defaultParams({}).partitionBalance }),
    vertexTetOffsets: tetCsr.offsets,
    vertexTetCorners: tetCsr.ids,
    vertexEdgeOffsets: edgeCsr.offsets,
    vertexEdgeCorners: edgeCsr.ids,
    materials: objects.map((o) => ({ ...o.material })),
    tetConstants: new Float64Array(4 * tetCount),
    invMass: new Float64Array(vertexCount),
    relativeQuality: relativeTetQuality(restPositions, tets, tetObject, objects.length),
    sliverQuality: defaultParams({}).sliverQuality,
    vertexMassFloor: defaultParams({}).vertexMassFloor,
    partitionBalance: defaultParams({}).partitionBalance,
  };
  updateMaterialData(model);
  return model;
}

/**
 * Recomputes per-tet Neo-Hookean constants and per-vertex inverse masses from the objects'
 * materials (lumped mass: each tet gives density * volume / 4 to each of its vertices).
 * Handle vertices get inverse mass 0.
 */
export function updateMaterialData(model: Model): void {
  const lame: Lame[] = model.materials.map((m) => neoHookeanLame(lameFromYoung(m.youngsModulus, m.poissonRatio)));
  model.materials.forEach((m, o) => {
    if (!(m.density > 0)) throw new RangeError(`object ${o} (${model.objectNames[o]}): density must be positive, got ${m.density}`);
  });
  for (let t = 0; t < model.tetCount; t++) {
    neoHookeanConstants(lame[model.tetObject[t]], model.restVolume[t], model.tetConstants, 4 * t);
    // A sliver (mesh/tetQuality.ts) keeps a millionth of its stiffness: compliances divided by it.
    if (model.relativeQuality[t] < model.sliverQuality) {
      model.tetConstants[4 * t] /= SLIVER_STIFFNESS;
      if (model.tetConstants[4 * t + 1] > 0) model.tetConstants[4 * t + 1] /= SLIVER_STIFFNESS;
    }
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const v = model.tets[4 * t + k];
      n += model.vertexTetOffsets[v + 1] - model.vertexTetOffsets[v];
    }
    model.tetConstants[4 * t + 3] = 4 / n;
  }
  const mass = vertexMasses(model);
  for (let v = 0; v < model.vertexCount; v++) {
    model.invMass[v] = model.handleOfVertex[v] >= 0 || mass[v] === 0 ? 0 : 1 / mass[v];
  }
}

/**
 * Lumped vertex masses: each tet gives density * rest volume / 4 to each of its vertices,
 * handle vertices included (their inverse mass is 0 all the same).
 */
export function lumpedMasses(model: Model): Float64Array {
  const mass = new Float64Array(model.vertexCount);
  for (let t = 0; t < model.tetCount; t++) {
    const quarter = (model.materials[model.tetObject[t]].density * model.restVolume[t]) / 4;
    for (let k = 0; k < 4; k++) mass[model.tets[4 * t + k]] += quarter;
  }
  return mass;
}

/**
 * The masses the solvers move the vertices with: the lumped masses with the light vertices raised
 * (model.vertexMassFloor, vertexMassFloor.ts); each object's total equals its lumped total.
 */
export function vertexMasses(model: Model): Float64Array {
  return raiseLightVertices(lumpedMasses(model), model.tets, model.vertexTetOffsets, model.vertexTetCorners, model.vertexMassFloor);
}

/** Sets the light-vertex floor (SolverParams.vertexMassFloor) and, when it changes, the inverse masses; true when it changed them. */
export function setVertexMassFloor(model: Model, floor: number): boolean {
  if (floor === model.vertexMassFloor) return false;
  model.vertexMassFloor = floor;
  updateMaterialData(model);
  return true;
}

/** Sets one object's material (Young's modulus, Poisson ratio, density) and refreshes derived data. */
export function setObjectMaterial(model: Model, object: number, material: Material): void {
  setObjectMaterials(model, [[object, material]]);
}

/**
 * Sets several objects' materials and refreshes the derived data once: the refresh covers the whole
 * model, so one call per object made a pile's build quadratic (the runner's --young on 256 octopi:
 * 95 s instead of 8).
 */
export function setObjectMaterials(model: Model, changes: ReadonlyArray<readonly [object: number, material: Material]>): void {
  // Checked before any is set, so a bad change leaves the model as it was.
  for (const [object, material] of changes) {
    if (!(Number.isInteger(object) && object >= 0 && object < model.materials.length)) throw new RangeError(`no object ${object}`);
    if (!(material.density > 0)) throw new RangeError(`object ${object} (${model.objectNames[object]}): density must be positive, got ${material.density}`);
  }
  for (const [object, material] of changes) model.materials[object] = { ...material };
  updateMaterialData(model);
}
