import { theme as antTheme } from 'antd';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME_COLOR } from './appearance.ts';
import { contrast, TEXT_CONTRAST } from './contrast.ts';
import { DARK_TEXT_ON_SOLID, darkTokens } from './dark-primary.ts';
import { themes } from './themes.ts';

const paint = (token: Record<string, string>) =>
  antTheme.getDesignToken({ algorithm: antTheme.darkAlgorithm, token }) as unknown as Record<string, string>;

describe('darkTokens (WCAG 1.4.3 on dark themes)', () => {
  for (const name of ['tomorrow-night-blue', 'star'] as const) {
    const surface = themes[name].token.colorBgElevated!;

    it(`${name}: what antd paints from them reads as text on the lightest panel, and dark text on its solids`, () => {
      const untouched = paint({ colorPrimary: DEFAULT_THEME_COLOR });
      const painted = paint(darkTokens(DEFAULT_THEME_COLOR, surface));
      for (const k of [
        'colorPrimary',
        'colorLink',
        'colorError',
        'colorErrorText',
        'colorWarningText',
        'colorInfoText',
      ]) {
        expect(contrast(painted[k]!, surface), k).toBeGreaterThanOrEqual(TEXT_CONTRAST);
        expect(contrast(painted[k]!, DARK_TEXT_ON_SOLID), k).toBeGreaterThanOrEqual(4.5);
      }
      if (name === 'tomorrow-night-blue') {
        // As axe found them: the primary and a danger button's red below AA.
        expect(contrast(untouched.colorPrimary!, surface)).toBeLessThan(4.5);
        expect(contrast(untouched.colorError!, surface)).toBeLessThan(4.5);
        // Only as light as needed.
        expect(contrast(painted.colorPrimary!, surface)).toBeLessThan(TEXT_CONTRAST + 0.3);
      }
    });
  }

  it('keeps a colour that already reads', () => {
    expect(darkTokens('#9fd0ff', '#141414').colorPrimary).toBe('#9fd0ff');
  });
});
