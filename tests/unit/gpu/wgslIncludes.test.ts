import { describe, expect, it } from 'vitest';
import { withIncludes, wgslSnippetNames } from '../../../src/gpu/wgsl';

describe('WGSL includes', () => {
  it('finds the snippets in shaders/lib and splices them in once', () => {
    expect(wgslSnippetNames()).toContain('threadIndex');
    const out = withIncludes('#include "threadIndex"\n  #include "threadIndex"\nfn main() {}');
    expect(out.match(/fn threadIndex\(/g)?.length).toBe(1);
    expect(out).toContain('fn main() {}');
  });
  it('names the missing snippet and the file that asked for it', () => {
    expect(() => withIncludes('#include "noSuchSnippet"', 'dcd.wgsl')).toThrow(/dcd.wgsl: #include "noSuchSnippet"/);
  });
});
