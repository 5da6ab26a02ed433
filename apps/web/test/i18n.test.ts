/** Finding 23: the message catalogue's fallbacks (spec: zh-chs default, en fallback, partial ja / zh-cht). */
import { describe, expect, it } from 'vitest';
import { apiLanguage, getLocale, localized, registerMessages, setLocale, t } from '../src/lib/i18n.ts';

registerMessages('unit', {
  'zh-chs': { hello: '你好，{name}', nested: { deep: '深' } },
  en: { hello: 'Hello, {name}', onlyEn: 'English only', nested: { deep: 'deep' } },
  ja: { hello: 'こんにちは、{name}' },
});

describe('finding 23: i18n fallbacks', () => {
  it('starts in zh-chs and interpolates; nested namespaces flatten to dotted keys', () => {
    expect(getLocale()).toBe('zh-chs');
    expect(t('unit.hello', { name: '李雷' })).toBe('你好，李雷');
    expect(t('unit.nested.deep')).toBe('深');
  });

  it('a key missing in the current language falls back to English, then to the key itself', () => {
    expect(t('unit.onlyEn')).toBe('English only');
    expect(t('unit.nowhere')).toBe('unit.nowhere');
    setLocale('ja');
    expect(t('unit.hello', { name: 'Ken' })).toBe('こんにちは、Ken');
    expect(t('unit.nested.deep')).toBe('deep');
    setLocale('zh-chs');
  });

  it('an unknown parameter stays visible instead of becoming empty', () => {
    expect(t('unit.hello')).toBe('你好，{name}');
    expect(t('unit.hello', { other: 1 })).toBe('你好，{name}');
  });

  it('the server is asked in zh-CN for both Chinese scripts, English otherwise; labels follow', () => {
    expect(apiLanguage('zh-chs')).toBe('zh-CN');
    expect(apiLanguage('zh-cht')).toBe('zh-CN');
    expect(apiLanguage('en')).toBe('en');
    expect(apiLanguage('ja')).toBe('en');
    expect(localized({ zh: '已发出', en: 'Shipped' }, 'zh-cht')).toBe('已发出');
    expect(localized({ zh: '已发出', en: 'Shipped' }, 'en')).toBe('Shipped');
  });

  it('the chosen language is remembered for the next visit', () => {
    setLocale('en');
    expect(localStorage.getItem('1.21.2-locale') ?? localStorage.getItem(`${__APP_VERSION__}-locale`)).toBe('"en"');
    expect(document.documentElement.lang).toBe('en');
    setLocale('zh-chs');
  });
});
