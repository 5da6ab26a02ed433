import { registerRenderKind } from '../../src/lib/render-kinds.ts';

/**
 * The render kinds of the file pool's and render queue's tests (lib/render-kinds.ts): registered
 * in this module graph on import. A kind is all a render's input names; the module is looked up
 * where the render runs.
 */
const here = (file: string, name: string) => ({ module: new URL(file, import.meta.url).href, name });
export const TEST_RENDERS = {
  gate: 'test.gate',
  sleep: 'test.sleep',
  gated: 'test.gated',
  failing: 'test.failing',
} as const;
export function registerTestRenders(register: typeof registerRenderKind = registerRenderKind) {
  register(TEST_RENDERS.gate, here('./gate-render.ts', 'gateRender'));
  register(TEST_RENDERS.sleep, here('./sleep-render.ts', 'sleepRender'));
  register(TEST_RENDERS.gated, here('./sleep-render.ts', 'gatedRender'));
  register(TEST_RENDERS.failing, here('./gate-render.ts', 'failingRender'));
}
registerTestRenders();
