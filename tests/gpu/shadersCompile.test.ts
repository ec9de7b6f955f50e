import { describe, expect, it } from 'vitest';
import { withIncludes } from '../../src/gpu/wgsl';
import { penetrationPrelude } from '../../src/penetration/gpu/penetrationKernels';
import { xpbdModuleSource } from '../../src/sim/gpuKernels';
import { spbQueryPrelude } from '../../src/spb/gpu/spbKernels';
import { SPB_STATIC_CAPACITIES } from '../../src/spb/settings';
import { testGpu } from '../support/gpu';

/**
 * Every kernel module under shaders/ compiles on the device, its includes resolved and its
 * prelude prepended as the pipelines do (the XPBD kernels get xpbdCommon.wgsl, xpbdModuleSource;
 * the shortest path's and the penetration queries' their stack capacities).
 * Why: pipelines are built lazily (src/gpu/lazyPipelines.ts), so a module that no longer
 * compiles (a snippet gaining a binding that one of its includers lacks) otherwise shows only as
 * wrong frames in whichever test happens to record that kernel, and only on Dawn's console.
 */
const kernels = import.meta.glob('../../shaders/*.wgsl', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

/** The module's source as its pipeline builds it, by module name. */
function moduleSource(module: string, code: string): string {
  if (module.startsWith('xpbd')) return xpbdModuleSource(code, module);
  if (module === 'spbQuery') return withIncludes(spbQueryPrelude(SPB_STATIC_CAPACITIES) + code, module);
  if (module === 'ddfQuery' || module === 'restClosestQuery') return penetrationPrelude() + withIncludes(code, module);
  return withIncludes(code, module);
}

describe('WGSL kernels', () => {
  it('every module under shaders/ compiles without an error message', async () => {
    const { device } = await testGpu();
    const name = (path: string) => path.slice(path.lastIndexOf('/') + 1, -'.wgsl'.length);
    const failures: string[] = [];
    let compiled = 0;
    for (const [path, code] of Object.entries(kernels)) {
      const label = name(path);
      if (label === 'xpbdCommon') continue;
      const info = await device.createShaderModule({ label, code: moduleSource(label, code) }).getCompilationInfo();
      for (const m of info.messages) if (m.type === 'error') failures.push(`${label}.wgsl (with its includes) line ${m.lineNum}: ${m.message}`);
      compiled++;
    }
    expect(failures).toEqual([]);
    expect(compiled).toBe(Object.keys(kernels).length - 1);
  });
});
