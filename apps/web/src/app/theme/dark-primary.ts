/**
 * Colours on a dark theme (WCAG 2.1 1.4.3, AA). antd's dark algorithm does not paint the colours it
 * is given: it lays them over its dark base (the default #F08633 becomes #CF752E), and its status
 * and tag colours are tuned for #141414, not for tomorrow-night-blue's lighter panels. axe found
 * them at 2.2–3.4:1 there (issue 28 #26): links, danger buttons and error texts. So every
 * colour used as text is lightened towards white, same hue, just until it reads on the theme's
 * lightest panel; solids painted in those colours (buttons, badges, the selected page) then carry
 * dark text, which reads on all of them. Computed with antd's own palette generator and algorithm
 * rather than a copy of their arithmetic, which changes between versions.
 */
import { generate } from '@ant-design/colors';
import { theme as antTheme } from 'antd';
import { contrast, lightenUntil, mixHex, TEXT_CONTRAST } from './contrast.ts';

/**
 * What antd's dark algorithm paints for a seed: the 6th colour of its dark palette. Its own palette
 * generator (@ant-design/colors), not getDesignToken, which takes 20 ms a call and the search
 * below makes dozens; the test checks the two agree.
 */
const derived = (seed: string) => generate(seed, { theme: 'dark', backgroundColor: '#141414' })[5]!;

/** Text on a solid in a dark theme's (lightened) colours. */
export const DARK_TEXT_ON_SOLID = '#141414';

/** The seed antd is given for a colour: what it paints from it reads as text on `surface`. */
function darkSeed(hex: string, surface: string): string {
  const reads = (seed: string) => contrast(derived(seed), surface) >= TEXT_CONTRAST;
  if (reads(hex)) return hex.toLowerCase();
  // The least white that reads: the colour stays as saturated as it can.
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 14; i++) {
    const mid = (lo + hi) / 2;
    if (reads(mixHex(hex, '#ffffff', mid))) hi = mid;
    else lo = mid;
  }
  return mixHex(hex, '#ffffff', hi);
}

/** Status colours antd derives from their seeds and writes as text. */
const STATUS_TEXT = [
  'colorErrorText',
  'colorErrorTextHover',
  'colorWarningText',
  'colorSuccessText',
  'colorInfoText',
] as const;

/**
 * antd tokens for a dark theme whose lightest panel is `surface`: seeds whose painted colours read
 * there (the primary, error, warning, success), the text colours derived from them lightened
 * where they still do not, and dark text on solids. Tags take a lighter shade in styles/accessibility.css.
 */
export function darkTokens(themeColor: string, surface: string): Record<string, string> {
  const base = antTheme.defaultSeed;
  const primary = darkSeed(themeColor, surface);
  const seeds = {
    colorPrimary: primary,
    colorInfo: primary,
    colorError: darkSeed(base.colorError, surface),
    colorWarning: darkSeed(base.colorWarning, surface),
    colorSuccess: darkSeed(base.colorSuccess, surface),
  };
  const t = antTheme.getDesignToken({ algorithm: antTheme.darkAlgorithm, token: seeds }) as unknown as Record<
    string,
    string
  >;
  return {
    ...seeds,
    colorTextLightSolid: DARK_TEXT_ON_SOLID,
    ...Object.fromEntries(STATUS_TEXT.map((k) => [k, lightenUntil(t[k]!, surface)])),
  };
}
