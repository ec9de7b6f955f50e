/**
 * definePipelines (src/gpu/lazyPipelines.ts): a recipe runs on the first read of its property
 * and never again, the property keeps returning that object, and a recipe never read never runs.
 * The pipelines here are plain objects: the helper only defers and keeps what the recipe makes.
 */
import { describe, expect, it } from 'vitest';
import { definePipelines } from '../../../src/gpu/lazyPipelines';

class Kernels {
  declare readonly first: GPUComputePipeline;
  declare readonly second: GPUComputePipeline;
  readonly made: string[] = [];
  constructor() {
    const make = (name: string) => () => {
      this.made.push(name);
      return { label: name } as GPUComputePipeline;
    };
    definePipelines(this, { first: make('first'), second: make('second') });
  }
}

describe('definePipelines', () => {
  it('builds nothing at definition, each pipeline once on its first read, and the same object after', () => {
    const k = new Kernels();
    expect(k.made).toEqual([]);
    const a = k.first;
    expect(k.made).toEqual(['first']);
    expect(k.first).toBe(a);
    expect(k.first.label).toBe('first');
    expect(k.made).toEqual(['first']);
    const b = k.second;
    expect(b).not.toBe(a);
    expect(k.made).toEqual(['first', 'second']);
  });

  it('keeps each instance its own pipelines', () => {
    const k1 = new Kernels(), k2 = new Kernels();
    expect(k1.first).not.toBe(k2.first);
    expect(k2.made).toEqual(['first']);
    expect(k1.made).toEqual(['first']);
  });

  it('a property it defines cannot be overwritten', () => {
    const k = new Kernels();
    expect(() => {
      (k as unknown as { first: unknown }).first = null;
    }).toThrow(TypeError);
  });
});
