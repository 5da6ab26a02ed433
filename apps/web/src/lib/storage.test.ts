import { afterEach, describe, expect, it } from 'vitest';
import { removeCookie, setToken } from './storage.ts';

/**
 * The console sets the token cookie (the server sets none). Unit tests run without a DOM, so
 * `document` and `location` are stand-ins that keep what was written to `document.cookie`.
 */
const written: string[] = [];
function page(protocol: 'http:' | 'https:') {
  written.length = 0;
  Object.assign(globalThis, {
    location: { protocol },
    document: {
      get cookie() {
        return '';
      },
      set cookie(v: string) {
        written.push(v);
      },
    },
  });
}
afterEach(() => {
  Reflect.deleteProperty(globalThis, 'document');
  Reflect.deleteProperty(globalThis, 'location');
});

describe('finding 13: the token cookie', () => {
  it('is SameSite=Strict and Secure under HTTPS', () => {
    page('https:');
    setToken('abc');
    expect(written).toHaveLength(1);
    const attrs = written[0]!.split('; ');
    expect(attrs[0]).toBe(`${encodeURIComponent(`${__APP_VERSION__}-token`)}=abc`);
    expect(attrs).toContain('SameSite=Strict');
    expect(attrs).toContain('Secure');
    expect(attrs.some((a) => /^expires=/.test(a))).toBe(true);
  });
  it('is SameSite=Strict without Secure over plain HTTP (a Secure cookie would not be kept there)', () => {
    page('http:');
    setToken('abc');
    const attrs = written[0]!.split('; ');
    expect(attrs).toContain('SameSite=Strict');
    expect(attrs).not.toContain('Secure');
  });
  it('is removed with the same attributes', () => {
    page('https:');
    removeCookie('token');
    const attrs = written[0]!.split('; ');
    expect(attrs).toContain('expires=Thu, 01 Jan 1970 00:00:00 GMT');
    expect(attrs).toContain('SameSite=Strict');
    expect(attrs).toContain('Secure');
  });
});
