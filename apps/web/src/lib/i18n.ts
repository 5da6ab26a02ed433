/**
 * A small message catalogue (spec: zh-chs default, en, fallback en; ja and zh-cht partial).
 * Features register their own namespace from `features/<x>/i18n.ts`:
 *
 *   registerMessages('orders', { 'zh-chs': { title: '订单' }, en: { title: 'Orders' } });
 *   t('orders.title')
 *
 * Kept in-house rather than i18next: the login route must stay small and we need only
 * lookup, fallback and `{name}` interpolation.
 */
import type { ApiLanguage, I18nText } from '@console/contract';
import { useSyncExternalStore } from 'react';
import { readLocal, writeLocal } from './storage.ts';

export const locales = ['zh-chs', 'en', 'ja', 'zh-cht'] as const;
export type Locale = (typeof locales)[number];
/** The languages offered by the switch (spec §1); ja and zh-cht only via fallback use. */
export const switchableLocales: readonly Locale[] = ['zh-chs', 'en'];
export const DEFAULT_LOCALE: Locale = 'zh-chs';
export const FALLBACK_LOCALE: Locale = 'en';

type Messages = { [key: string]: string | Messages };
const catalogue: Record<Locale, Map<string, string>> = {
  'zh-chs': new Map(),
  en: new Map(),
  ja: new Map(),
  'zh-cht': new Map(),
};

function flatten(prefix: string, messages: Messages, into: Map<string, string>) {
  for (const [k, v] of Object.entries(messages)) {
    const key = `${prefix}.${k}`;
    if (typeof v === 'string') into.set(key, v);
    else flatten(key, v, into);
  }
}

/** Adds (or replaces) a namespace. zh-chs and en are required; other locales may be partial. */
export function registerMessages(
  namespace: string,
  messages: { 'zh-chs': Messages; en: Messages } & Partial<Record<Locale, Messages>>,
): void {
  for (const locale of locales) {
    const m = messages[locale];
    if (m) flatten(namespace, m, catalogue[locale]);
  }
  emit();
}

const isLocale = (s: unknown): s is Locale => typeof s === 'string' && (locales as readonly string[]).includes(s);
let current: Locale = (() => {
  const saved = readLocal<unknown>('locale', DEFAULT_LOCALE);
  return isLocale(saved) ? saved : DEFAULT_LOCALE;
})();

const listeners = new Set<() => void>();
let version = 0;
function emit() {
  version++;
  for (const l of listeners) l();
}

export function getLocale(): Locale {
  return current;
}

export function setLocale(locale: Locale): void {
  if (locale === current) return;
  current = locale;
  writeLocal('locale', locale);
  document.documentElement.lang = htmlLang(locale);
  emit();
}

export function htmlLang(locale: Locale): string {
  return { 'zh-chs': 'zh-CN', en: 'en', ja: 'ja', 'zh-cht': 'zh-TW' }[locale];
}

/** The server speaks zh-CN and en (zh-chs is sent as zh-CN). */
export function apiLanguage(locale: Locale = current): ApiLanguage {
  return locale === 'zh-chs' || locale === 'zh-cht' ? 'zh-CN' : 'en';
}

export type TParams = Record<string, string | number>;

export function t(key: string, params?: TParams): string {
  const text = catalogue[current].get(key) ?? catalogue[FALLBACK_LOCALE].get(key) ?? key;
  return params ? text.replace(/\{(\w+)\}/g, (m, p: string) => (p in params ? String(params[p]) : m)) : text;
}

/** Whether a key exists in some locale (used by tests of completeness). */
export function hasMessage(locale: Locale, key: string): boolean {
  return catalogue[locale].has(key);
}

/** Every key a locale defines (the parity test compares the languages). */
export function messageKeys(locale: Locale): string[] {
  return [...catalogue[locale].keys()];
}

/** A server label in both languages, shown in the current one. */
export function localized(text: I18nText, locale: Locale = current): string {
  return locale === 'zh-chs' || locale === 'zh-cht' ? text.zh : text.en;
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Re-renders on language change or when a namespace registers late (lazy features). */
export function useI18n() {
  useSyncExternalStore(subscribe, () => version);
  return { t, locale: current, setLocale, localized: (x: I18nText) => localized(x, current) };
}

export function onLocaleChange(fn: () => void): () => void {
  return subscribe(fn);
}
