/**
 * The page's URL hash: every setting the GUI offers survives encode -> decode exactly, bad
 * values are refused with the key named, and every solver parameter has a key.
 */
import { describe, expect, it } from 'vitest';
import { decodeHash, encodeHash, MATERIAL_KEYS, PARAM_KEYS, VIEW_KEYS } from '../../../src/app/config/hashConfig';
import { defaultPageConfig, type PageConfig } from '../../../src/app/config/pageConfig';
import { declaredParamKeys } from '../../../src/app/paramControls';
import { defaultParams } from '../../../src/contract/params';
import { rng as mulberry32 } from '../../support/random';

describe('the page URL hash', () => {
  it('has a key for every solver parameter', () => {
    const fields = Object.keys(defaultParams()).sort();
    expect(PARAM_KEYS.map((k) => k.field as string).sort()).toEqual(fields);
    expect(new Set(PARAM_KEYS.map((k) => k.key)).size).toBe(PARAM_KEYS.length);
  });

  it('every parameter the panel declares (paramControls.ts) has a URL key, and every URL key has a control', () => {
    const declared = declaredParamKeys();
    const withKey = new Set(PARAM_KEYS.map((k) => k.field));
    for (const field of declared) expect(withKey.has(field), field).toBe(true);
    // springCompliance sits in the Material folder, the rest in the tables.
    const controlled = new Set([...declared, 'springCompliance']);
    for (const k of PARAM_KEYS) expect(controlled.has(k.field), k.key).toBe(true);
  });

  it('round-trips random values of every key exactly', () => {
    const random = mulberry32(7);
    for (let trial = 0; trial < 50; trial++) {
      const c: PageConfig = defaultPageConfig('squishy-squeeze');
      c.size = Math.floor(random() * 40) + 1;
      c.engine = (['auto', 'gpu', 'cpu'] as const)[trial % 3]!;
      c.run = random() < 0.5;
      for (const p of PARAM_KEYS) {
        const r = random();
        let v: unknown;
        if (Array.isArray(p.kind)) v = p.kind[Math.floor(r * p.kind.length)];
        else if (p.kind === 'bool') v = r < 0.5;
        else if (p.kind === 'vec3') v = [random() - 0.5, -9.81 * random(), 1e-7 * random()];
        else if (p.kind === 'count' || p.kind === 'int') v = 1 + Math.floor(r * 100);
        else if (p.kind === 'intOrAuto') v = r < 0.3 ? 'auto' : Math.floor(r * 100);
        else if (p.kind === 'positiveOrOff') v = r < 0.3 ? Infinity : r + 1e-6;
        else if (p.field === 'jacobiRelaxation') v = 1 + r; // [1, 2]: MIN_ / MAX_JACOBI_RELAXATION
        else v = r * 10 ** Math.floor(random() * 10 - 5) + 1e-12;
        (c.params as Record<string, unknown>)[p.field] = v;
      }
      c.materials[0] = { youngsModulus: 1e5 * random() + 1, poissonRatio: 0.49 * random(), density: 1000 * random() + 1 };
      c.materials[3] = { poissonRatio: 0.3 };
      c.view = { tint: random() < 0.5, shadows: random() < 0.5, wireframe: random() < 0.5, points: random() < 0.5, paths: random() < 0.5, ccd: random() < 0.5, bvhLevel: Math.floor(random() * 8) - 1 };
      c.mesh = trial % 4 === 3 ? { copies: 1 + (trial % 5), imported: `my mesh ${trial}.1.node + my mesh ${trial}.1.ele` } : { shape: 'octopus', resolution: 20 + trial, copies: 1 + (trial % 5) };
      expect(decodeHash(encodeHash(c), 'other')).toEqual(c);
    }
  });

  it('writes only what differs from the defaults', () => {
    expect(encodeHash(defaultPageConfig('octopus-box'))).toBe('#scene=octopus-box');
    const c = defaultPageConfig('octopus-box');
    c.params.selfCollision = false;
    c.view.tint = false;
    expect(encodeHash(c)).toBe('#scene=octopus-box&self=0&tint=0');
  });

  it('reads a hand-written link', () => {
    const c = decodeHash('#scene=rods-twist&size=3&substeps=40&mode=ccd&gravity=0,-1.62,0&young.1=2e5&bvhlevel=2&run=1', 'x');
    expect(c.scene).toBe('rods-twist');
    expect(c.size).toBe(3);
    expect(c.run).toBe(true);
    expect(c.params).toEqual({ substeps: 40, collisionMode: 'ccd', gravity: [0, -1.62, 0] });
    expect(c.materials).toEqual({ 1: { youngsModulus: 2e5 } });
    expect(c.view.bvhLevel).toBe(2);
    expect(decodeHash('', 'octopus-box').scene).toBe('octopus-box');
    expect(decodeHash('#offset=auto', 'x').params).toEqual({ contactOffset: 'auto' });
    expect(decodeHash('#offset=0.002', 'x').params).toEqual({ contactOffset: 0.002 });
    expect(decodeHash('#impact=16', 'x').params).toEqual({ impactSubsteps: 16 });
    expect(decodeHash('#impact=auto', 'x').params).toEqual({ impactSubsteps: 'auto' });
    expect(() => decodeHash('#impact=2.5', 'x')).toThrow(/impact=2\.5 must be auto or an integer >= 0/);
    expect(decodeHash('#offsetspeed=off', 'x').params).toEqual({ contactOffsetSpeed: Infinity });
    expect(decodeHash('#offsetspeed=0.25', 'x').params).toEqual({ contactOffsetSpeed: 0.25 });
    expect(decodeHash('#depen=off', 'x').params).toEqual({ depenetrationSpeed: Infinity });
    expect(decodeHash('#depen=2', 'x').params).toEqual({ depenetrationSpeed: 2 });
    expect(decodeHash('#farside=drop', 'x').params).toEqual({ farSideContacts: 'drop' });
    expect(decodeHash('#colresp=multiplier', 'x').params).toEqual({ colliderResponse: 'multiplier' });
    expect(() => decodeHash('#offsetspeed=0', 'x')).toThrow(/offsetspeed=0 must be off or a finite number > 0/);
  });

  it('refuses bad values and unknown keys, naming them', () => {
    expect(() => decodeHash('#substeps=2.5', 'x')).toThrow(/substeps=2\.5 must be an integer/);
    expect(() => decodeHash('#substeps=0', 'x')).toThrow(/substeps=0 must be an integer >= 1/);
    expect(() => decodeHash('#dt=-1', 'x')).toThrow(/dt=-1 must be positive/);
    expect(() => decodeHash('#relax=3', 'x')).toThrow(/relax=3 must be in \[1, 2\]/);
    expect(() => decodeHash('#relax=0.5', 'x')).toThrow(/relax=0\.5 must be in \[1, 2\]/);
    expect(() => decodeHash('#mode=fast', 'x')).toThrow(/mode=fast must be one of hybrid, dcd, ccd, air/);
    expect(() => decodeHash('#self=yes', 'x')).toThrow(/self=yes must be 0 or 1/);
    expect(() => decodeHash('#gravity=0,1', 'x')).toThrow(/gravity=0,1 must be 3 finite numbers/);
    expect(() => decodeHash('#poisson.0=0.5', 'x')).toThrow(/poisson\.0=0\.5 must be below 0\.5/);
    expect(() => decodeHash('#young.x=5', 'x')).toThrow(/young\.x=5 names no object index/);
    expect(() => decodeHash('#colour=red', 'x')).toThrow(/unknown key "colour"/);
    expect(() => decodeHash('#offset=-1', 'x')).toThrow(/offset=-1 must be auto or a finite number >= 0/);
  });

  it('lists each key once', () => {
    const keys = [...PARAM_KEYS.map((k) => k.key), ...MATERIAL_KEYS.map((k) => k.key), ...VIEW_KEYS.map((k) => k.key)];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
