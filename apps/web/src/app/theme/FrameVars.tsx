/**
 * Applies the appearance to the document without antd (so the login route stays small):
 * theme name, the frame's CSS variables, grey mode, colour scheme and the html lang.
 */
import { useEffect } from 'react';
import { htmlLang, useI18n } from '@/lib/i18n.ts';
import { useAppearance } from './appearance.ts';
import { lightenUntil, readablePrimary } from './contrast.ts';
import { themes } from './themes.ts';

export function FrameVars() {
  const appearance = useAppearance();
  const { locale } = useI18n();
  useEffect(() => {
    const def = themes[appearance.theme];
    const root = document.documentElement;
    root.dataset.theme = appearance.theme;
    root.classList.toggle('grey-mode', appearance.grey);
    root.classList.toggle('theme-dark', def.dark);
    for (const [k, v] of Object.entries(def.frame)) {
      root.style.setProperty(`--frame-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, v);
    }
    // The frame's selected menu item and tab write it as text: darkened to read on a light theme,
    // lightened to read on a dark theme's lightest panel (the active tab's).
    root.style.setProperty(
      '--frame-primary',
      def.dark
        ? lightenUntil(appearance.themeColor, def.token.colorBgElevated ?? '#1f1f1f')
        : readablePrimary(appearance.themeColor),
    );
    root.style.colorScheme = def.dark ? 'dark' : 'light';
  }, [appearance]);
  useEffect(() => {
    document.documentElement.lang = htmlLang(locale);
  }, [locale]);
  return null;
}
