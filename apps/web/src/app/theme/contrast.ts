/**
 * WCAG 2.1 contrast (1.4.3, AA: 4.5:1 for text). The theme colour a user picks is a brand colour
 * (the default #F08633 carries white text at 2.6:1); antd draws white text on the primary colour
 * (buttons, badges, the selected page number) and primary-coloured text on white (links), so the
 * primary it is given is the picked hue darkened just enough to read both ways.
 */

const channel = (c: number) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

function rgbOf(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map(channel) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** AA for normal text (4.5:1), with margin for tinted backgrounds (a link in a warning alert). */
export const TEXT_CONTRAST = 5;

/** `hex` (#rrggbb) as it is when white text on it already reads; otherwise darkened, same hue. */
export function readablePrimary(hex: string): string {
  if (contrast(hex, '#ffffff') >= TEXT_CONTRAST) return hex.toLowerCase();
  const rgb = rgbOf(hex);
  const scaled = (k: number) =>
    `#${rgb
      .map((c) =>
        Math.round(c * k)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
  // The largest scale towards black that reads: the colour stays as light as it can.
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 20; i++) {
    const mid = (lo + hi) / 2;
    if (contrast(scaled(mid), '#ffffff') >= TEXT_CONTRAST) lo = mid;
    else hi = mid;
  }
  return scaled(lo);
}

/** `a` mixed with `b` (#rrggbb), `t` of `b`: the same arithmetic as antd's palette. */
export function mixHex(a: string, b: string, t: number): string {
  const [x, y] = [rgbOf(a), rgbOf(b)];
  return `#${x
    .map((c, i) =>
      Math.round(c + (y[i]! - c) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** `fg` mixed towards white just until it reads on each of `bgs` (a dark theme's text colours). */
export function lightenUntil(fg: string, ...bgs: string[]): string {
  const reads = (c: string) => bgs.every((bg) => contrast(c, bg) >= TEXT_CONTRAST);
  if (reads(fg)) return fg.toLowerCase();
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 14; i++) {
    const mid = (lo + hi) / 2;
    if (reads(mixHex(fg, '#ffffff', mid))) hi = mid;
    else lo = mid;
  }
  return mixHex(fg, '#ffffff', hi);
}

/**
 * The primary under the pointer: antd derives a lighter hover from the primary, and white text on
 * a hovered primary button read at 3.7:1 (axe on the interception dialog, issue 28 #26). A shade
 * darker instead, as a pressed button already is: it reads wherever the primary reads.
 */
export function readablePrimaryHover(primary: string): string {
  return mixHex(primary, '#000000', 0.1);
}
