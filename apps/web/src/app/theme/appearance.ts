/**
 * Appearance settings (spec §2): grey mode, theme colour (#F08633), component size, aside
 * collapse and theme. Saved per user locally and on the server; the login page uses the
 * last user's look so the switch of theme is not visible on log-in.
 */
import { useSyncExternalStore } from 'react';
import { readLocal, writeLocal } from '@/lib/storage.ts';
import { readUserSetting, saveUserSetting } from '../userSettings.ts';
import { isThemeName, type ThemeName } from './themes.ts';

export const DEFAULT_THEME_COLOR = '#F08633';
export type ComponentSize = 'small' | 'middle' | 'large';

export interface Appearance {
  theme: ThemeName;
  themeColor: string;
  size: ComponentSize;
  grey: boolean;
  asideCollapse: boolean;
}

export const defaultAppearance: Appearance = {
  theme: 'd2',
  themeColor: DEFAULT_THEME_COLOR,
  size: 'middle',
  grey: false,
  asideCollapse: false,
};

/** Accepts only known values, so a tampered or old stored object cannot break the frame. */
export function sanitizeAppearance(v: unknown): Appearance {
  const o = (v && typeof v === 'object' ? v : {}) as Partial<Record<keyof Appearance, unknown>>;
  return {
    theme: isThemeName(o.theme) ? o.theme : defaultAppearance.theme,
    themeColor:
      typeof o.themeColor === 'string' && /^#[0-9a-f]{6}$/i.test(o.themeColor) ? o.themeColor : DEFAULT_THEME_COLOR,
    size: o.size === 'small' || o.size === 'large' || o.size === 'middle' ? o.size : 'middle',
    grey: o.grey === true,
    asideCollapse: o.asideCollapse === true,
  };
}

let user: string | null = null;
let current: Appearance = sanitizeAppearance(readLocal('appearance:last', defaultAppearance));
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function useAppearance(): Appearance {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

export function getAppearance() {
  return current;
}

/** Switches to a user's settings: the server copy if given, else the local one. */
export function loadAppearanceFor(name: string, serverValue?: unknown) {
  user = name;
  current = sanitizeAppearance(serverValue ?? readUserSetting(name, 'appearance', defaultAppearance));
  writeLocal('appearance:last', current);
  if (serverValue !== undefined) writeLocal(`settings:${name}:appearance`, current);
  emit();
}

export function setAppearance(patch: Partial<Appearance>) {
  current = sanitizeAppearance({ ...current, ...patch });
  writeLocal('appearance:last', current);
  if (user) saveUserSetting(user, 'appearance', current);
  emit();
}

export function resetAppearance() {
  setAppearance(defaultAppearance);
}

export function forgetAppearanceUser() {
  user = null;
}
