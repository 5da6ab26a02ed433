/**
 * The seven themes of the spec. Each is a whole look: antd algorithm and tokens (radius,
 * fonts, surfaces) plus the frame's own colours as CSS variables (header, aside, tabs, page
 * background), not just a colour swap. The theme colour setting is the primary colour.
 */
export const themeNames = ['d2', 'chester', 'element', 'violet', 'line', 'star', 'tomorrow-night-blue'] as const;
export type ThemeName = (typeof themeNames)[number];

export interface ThemeDef {
  dark: boolean;
  compact?: boolean;
  token: {
    borderRadius: number;
    fontFamily?: string;
    colorBgLayout: string;
    colorBgContainer?: string;
    colorBgElevated?: string;
    colorBorderSecondary?: string;
    wireframe?: boolean;
  };
  /** Frame colours; become --frame-* CSS variables on <html>. */
  frame: {
    bodyBg: string;
    headerBg: string;
    headerText: string;
    headerBorder: string;
    asideBg: string;
    asideText: string;
    tabsBg: string;
    tabBg: string;
    tabActiveBg: string;
    tabText: string;
    contentBg: string;
    shadow: string;
  };
}

const sans = "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', sans-serif";

export const themes: Record<ThemeName, ThemeDef> = {
  d2: {
    dark: false,
    token: { borderRadius: 4, colorBgLayout: '#ebf1f6', fontFamily: sans },
    frame: {
      bodyBg: 'linear-gradient(160deg, #ebf1f6 0%, #f6f8fb 100%)',
      headerBg: 'rgba(255,255,255,0.72)',
      headerText: '#2f3b52',
      headerBorder: 'rgba(0,0,0,0.06)',
      asideBg: 'rgba(255,255,255,0.45)',
      asideText: '#2f3b52',
      tabsBg: 'transparent',
      tabBg: 'rgba(255,255,255,0.6)',
      tabActiveBg: '#ffffff',
      tabText: '#606266',
      contentBg: '#ffffff',
      shadow: '0 1px 4px rgba(0,21,41,0.08)',
    },
  },
  chester: {
    dark: false,
    token: {
      borderRadius: 2,
      colorBgLayout: '#f2ede4',
      colorBgContainer: '#fffdf8',
      fontFamily: "Georgia, 'Noto Serif CJK SC', 'Songti SC', serif",
    },
    frame: {
      bodyBg: 'repeating-linear-gradient(45deg, #f2ede4 0 12px, #efe8dc 12px 24px)',
      headerBg: '#3b3430',
      headerText: '#f4e9d8',
      headerBorder: '#2a2522',
      asideBg: '#e7dfd1',
      asideText: '#3b3430',
      tabsBg: '#e7dfd1',
      tabBg: '#efe8dc',
      tabActiveBg: '#fffdf8',
      tabText: '#5b4f45',
      contentBg: '#fffdf8',
      shadow: '0 2px 0 rgba(59,52,48,0.15)',
    },
  },
  element: {
    dark: false,
    token: {
      borderRadius: 4,
      colorBgLayout: '#f0f2f5',
      fontFamily: "'Helvetica Neue', Helvetica, 'PingFang SC', Arial, sans-serif",
    },
    frame: {
      bodyBg: '#f0f2f5',
      headerBg: '#ffffff',
      headerText: '#303133',
      headerBorder: '#dcdfe6',
      asideBg: '#304156',
      asideText: '#bfcbd9',
      tabsBg: '#ffffff',
      tabBg: '#ffffff',
      tabActiveBg: '#42b983',
      tabText: '#495060',
      contentBg: '#ffffff',
      shadow: '0 1px 3px rgba(0,0,0,0.12)',
    },
  },
  violet: {
    dark: false,
    token: { borderRadius: 10, colorBgLayout: '#f4f0fa', colorBgContainer: '#ffffff', fontFamily: sans },
    frame: {
      bodyBg: 'linear-gradient(135deg, #f4f0fa 0%, #ece4f7 100%)',
      headerBg: 'linear-gradient(90deg, #4b2a7b 0%, #7b3fa6 100%)',
      headerText: '#ffffff',
      headerBorder: 'transparent',
      asideBg: '#efe7f9',
      asideText: '#4b2a7b',
      tabsBg: 'transparent',
      tabBg: 'rgba(123,63,166,0.08)',
      tabActiveBg: '#ffffff',
      tabText: '#4b2a7b',
      contentBg: '#ffffff',
      shadow: '0 4px 16px rgba(75,42,123,0.12)',
    },
  },
  line: {
    dark: false,
    token: {
      borderRadius: 0,
      colorBgLayout: '#ffffff',
      colorBorderSecondary: '#d9d9d9',
      wireframe: true,
      fontFamily: "'SFMono-Regular', Menlo, 'Noto Sans Mono CJK SC', monospace",
    },
    frame: {
      bodyBg: '#ffffff',
      headerBg: '#ffffff',
      headerText: '#111111',
      headerBorder: '#111111',
      asideBg: '#ffffff',
      asideText: '#111111',
      tabsBg: '#ffffff',
      tabBg: '#ffffff',
      tabActiveBg: '#ffffff',
      tabText: '#111111',
      contentBg: '#ffffff',
      shadow: 'none',
    },
  },
  star: {
    dark: true,
    token: {
      borderRadius: 6,
      colorBgLayout: '#0b1026',
      colorBgContainer: 'rgba(20,26,58,0.85)',
      colorBgElevated: '#161d42',
      fontFamily: sans,
    },
    frame: {
      bodyBg:
        'radial-gradient(1px 1px at 20% 30%, #fff 50%, transparent 51%), radial-gradient(1px 1px at 70% 60%, #cfd8ff 50%, transparent 51%), radial-gradient(1.5px 1.5px at 40% 80%, #fff 50%, transparent 51%), radial-gradient(1px 1px at 85% 15%, #fff 50%, transparent 51%), radial-gradient(ellipse at top, #1b2a6b 0%, #0b1026 60%, #05070f 100%)',
      headerBg: 'rgba(5,7,20,0.55)',
      headerText: '#e6ebff',
      headerBorder: 'rgba(255,255,255,0.08)',
      asideBg: 'rgba(5,7,20,0.35)',
      asideText: '#c9d2ff',
      tabsBg: 'transparent',
      tabBg: 'rgba(255,255,255,0.06)',
      tabActiveBg: 'rgba(255,255,255,0.16)',
      tabText: '#c9d2ff',
      contentBg: 'rgba(20,26,58,0.85)',
      shadow: '0 0 24px rgba(80,110,255,0.18)',
    },
  },
  'tomorrow-night-blue': {
    dark: true,
    token: {
      borderRadius: 4,
      colorBgLayout: '#002451',
      colorBgContainer: '#00346e',
      colorBgElevated: '#003f86',
      fontFamily: sans,
    },
    frame: {
      bodyBg: '#002451',
      headerBg: '#001c40',
      headerText: '#ffffff',
      headerBorder: '#00346e',
      asideBg: '#001733',
      asideText: '#bbdaff',
      tabsBg: '#002451',
      tabBg: '#00346e',
      tabActiveBg: '#003f86',
      tabText: '#bbdaff',
      contentBg: '#00346e',
      shadow: 'none',
    },
  },
};

export const isThemeName = (s: unknown): s is ThemeName =>
  typeof s === 'string' && (themeNames as readonly string[]).includes(s);
