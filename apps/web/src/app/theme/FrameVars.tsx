/**
 * Applies the appearance to the document without antd (so the login route stays small):
 * theme name, the frame's CSS variables, grey mode, colour scheme and the html lang.
 */
import { useEffect } from 'react';
import { htmlLang, useI18n } from '@/lib/i18n.ts';
import { useAppearance } from './appearance.ts';
import { readablePrimary } from './contrast.ts';
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
    // The frame's selected menu item and tab write it as text: the same readable shade antd gets.
    root.style.setProperty(
      '--frame-primary',
      def.dark ? appearance.themeColor : readablePrimary(appearance.themeColor),
    );
    root.style.colorScheme = def.dark ? 'dark' : 'light';
  }, [appearance]);
  useEffect(() => {
    document.documentElement.lang = htmlLang(locale);
  }, [locale]);
  return null;
}
