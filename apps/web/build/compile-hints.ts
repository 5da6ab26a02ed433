/**
 * Marks every JS chunk with V8's explicit compile hint (`//# allFunctionsCalledOnLoad`,
 * Chrome 136+): its functions are compiled when the chunk is fetched — on V8's streaming
 * thread for all but small files — instead of one by one on the main thread the first time
 * each is called. The console's chunks are fetched when they are about to run (the frame and
 * home are prefetched on the login page, a page's chunks when the menu offers it), so the
 * compile moves from "after the click" to "while the user types / while idle". Other
 * browsers ignore the comment. The comment must be the file's first line, so this runs
 * after minification (which would drop it).
 */
import type { Plugin } from 'vite';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

export function compileHints(): Plugin {
  return {
    name: 'console:compile-hints',
    apply: 'build',
    enforce: 'post',
    // After Vite's own generateBundle work, which puts its preload map at the top of chunks.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === 'chunk' && !chunk.code.startsWith(COMPILE_HINT)) chunk.code = COMPILE_HINT + chunk.code;
        }
      },
    },
  };
}
