import { App as AntApp, ConfigProvider, theme as antTheme } from 'antd';
import type { Locale as AntLocale } from 'antd/es/locale';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { setFeedback } from '@/lib/feedback.ts';
import { useI18n, type Locale } from '@/lib/i18n.ts';
import { useAppearance } from './appearance.ts';
import { readablePrimary, readablePrimaryHover } from './contrast.ts';
import { darkTokens } from './dark-primary.ts';
import { themes } from './themes.ts';

const staticLocales: Partial<Record<Locale, AntLocale>> = { 'zh-chs': zhCN, en: enUS };
// Partial languages load their antd strings on demand.
const lazyLocales: Partial<Record<Locale, () => Promise<{ default: AntLocale }>>> = {
  ja: () => import('antd/locale/ja_JP'),
  'zh-cht': () => import('antd/locale/zh_TW'),
};

function useAntLocale(locale: Locale): AntLocale {
  const [loaded, setLoaded] = useState<Partial<Record<Locale, AntLocale>>>({});
  useEffect(() => {
    const load = lazyLocales[locale];
    if (load && !loaded[locale]) void load().then((m) => setLoaded((x) => ({ ...x, [locale]: m.default })));
  }, [locale, loaded]);
  return staticLocales[locale] ?? loaded[locale] ?? enUS;
}

function FeedbackBridge() {
  const { message, notification, modal } = AntApp.useApp();
  useEffect(() => {
    setFeedback({ message, notification, modal });
    return () => setFeedback(null);
  }, [message, notification, modal]);
  return null;
}

const reducedMotion =
  typeof window === 'undefined' ? undefined : window.matchMedia?.('(prefers-reduced-motion: reduce)');

/** Whether the system asks for less motion (an accessibility setting); followed as it changes. */
function useReducedMotion(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      reducedMotion?.addEventListener('change', onChange);
      return () => reducedMotion?.removeEventListener('change', onChange);
    },
    () => reducedMotion?.matches ?? false,
    () => false,
  );
}

/** antd's theme from the appearance settings (the frame's CSS variables are set by FrameVars). */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const appearance = useAppearance();
  const { locale } = useI18n();
  const def = themes[appearance.theme];
  const antLocale = useAntLocale(locale);
  const still = useReducedMotion();
  // Light themes: white text on the primary and primary text on white both read at AA (WCAG
  // 1.4.3), and so do hints, help texts and a select's placeholder (antd's 45 % and 25 % black read
  // at 3.4:1 and 1.6:1). On a dark theme a darker primary would read worse: its colours are
  // lightened instead, and solids carry dark text (dark-primary.ts).
  const dark = useMemo(
    () => (def.dark ? darkTokens(appearance.themeColor, def.token.colorBgElevated ?? '#1f1f1f') : null),
    [def, appearance.themeColor],
  );
  const primary = readablePrimary(appearance.themeColor);
  const secondaryText = def.dark ? 'rgba(255,255,255,0.65)' : 'rgba(0,0,0,0.6)';
  const placeholder = def.dark ? 'rgba(255,255,255,0.65)' : 'rgba(0,0,0,0.56)';

  return (
    <ConfigProvider
      locale={antLocale}
      componentSize={appearance.size}
      theme={{
        algorithm: def.dark ? antTheme.darkAlgorithm : antTheme.defaultAlgorithm,
        // A user who asks the system for less motion gets dialogs, menus and pickers without their
        // zoom and slide animations (antd's `motion` token turns them off).
        token: {
          colorPrimary: primary,
          colorInfo: primary,
          colorTextDescription: secondaryText,
          colorTextTertiary: secondaryText,
          colorTextPlaceholder: placeholder,
          // antd's #ff4d4f reads at 3.3:1 (danger buttons and links, error texts); red 7 at 5.6:1.
          // antd's lighter hover of the primary carried white text at 3.7:1: a darker one reads.
          ...(dark ?? { colorError: '#cf1322', colorPrimaryHover: readablePrimaryHover(primary) }),
          ...def.token,
          motion: !still,
        },
        components: def.dark ? undefined : { Menu: { itemBg: 'transparent' } },
        // Components' styles come from antd's prebuilt stylesheet (imported by ShellRoot), not
        // from CSS-in-JS at render time; the tokens above still apply as CSS variables.
        zeroRuntime: true,
      }}
    >
      <AntApp>
        <FeedbackBridge />
        {children}
      </AntApp>
    </ConfigProvider>
  );
}
