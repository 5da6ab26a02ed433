import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME_COLOR } from './appearance.ts';
import { contrast, readablePrimary, readablePrimaryHover, TEXT_CONTRAST } from './contrast.ts';

describe('readablePrimary (WCAG 1.4.3)', () => {
  it('darkens the default theme colour until white text on it reads at 4.5:1, keeping its hue', () => {
    expect(contrast(DEFAULT_THEME_COLOR, '#ffffff')).toBeLessThan(3);
    const p = readablePrimary(DEFAULT_THEME_COLOR);
    expect(contrast(p, '#ffffff')).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    // Only as dark as needed: a step lighter would not read.
    expect(contrast(p, '#ffffff')).toBeLessThan(TEXT_CONTRAST + 0.1);
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(p.slice(i, i + 2), 16)) as [number, number, number];
    expect(r / b).toBeCloseTo(0xf0 / 0x33, 0);
    expect(g / b).toBeCloseTo(0x86 / 0x33, 0);
  });
  it('leaves a colour that already reads as it is', () => {
    expect(readablePrimary('#1F4E8C')).toBe('#1f4e8c');
  });
});

describe('readablePrimaryHover', () => {
  it('a hovered primary button still carries white text at 4.5:1, for the default and picked colours', () => {
    for (const picked of [DEFAULT_THEME_COLOR, '#722ED1', '#1677FF', '#52C41A', '#FADB14']) {
      const primary = readablePrimary(picked);
      expect(contrast(readablePrimaryHover(primary), '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(readablePrimaryHover(primary)).not.toBe(primary);
    }
  });
});
