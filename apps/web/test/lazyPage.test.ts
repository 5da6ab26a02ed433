/** Issue 11 (first screens): a chunk preloaded on the login page renders without a spinner pass. */
import { createElement, Suspense, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyLoaded, preload, preloaded } from '../src/app/routes/lazyPage.tsx';

const Page: ComponentType = () => createElement('p', null, 'the page');
const render = (C: ComponentType) =>
  renderToString(createElement(Suspense, { fallback: createElement('i', null, 'spinner') }, createElement(C)));

describe('lazyLoaded', () => {
  it('renders a preloaded module in the first pass, not its fallback', async () => {
    const load = () => Promise.resolve({ default: Page });
    await preload(load);
    expect(preloaded(load)).toEqual({ default: Page });
    const html = render(lazyLoaded(load));
    expect(html).toContain('the page');
    expect(html).not.toContain('spinner');
  });

  it('suspends as lazy() does on a module nobody preloaded', () => {
    const load = () => Promise.resolve({ default: Page });
    expect(preloaded(load)).toBeUndefined();
    const html = render(lazyLoaded(load));
    expect(html).toContain('spinner');
    expect(html).not.toContain('the page');
  });

  it('a failed preload leaves the loader to the real load', async () => {
    let calls = 0;
    const load = () => (++calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve({ default: Page }));
    await expect(preload(load)).rejects.toThrow('offline');
    expect(preloaded(load)).toBeUndefined();
    expect(render(lazyLoaded(load))).toContain('spinner');
    expect(calls).toBe(2);
  });
});
