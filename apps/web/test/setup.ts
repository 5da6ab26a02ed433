/**
 * The browser globals the console's lib/ reads, for unit tests in Node: a cookie jar that
 * honours expiry (removal is an expired cookie), localStorage and sessionStorage, and a location whose reload
 * is counted. Real implementations of the web APIs' behaviour, not stand-ins for console code.
 */
class MemoryStorage {
  #m = new Map<string, string>();
  get length() {
    return this.#m.size;
  }
  key(i: number) {
    return [...this.#m.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.#m.has(k) ? this.#m.get(k)! : null;
  }
  setItem(k: string, v: string) {
    this.#m.set(k, String(v));
  }
  removeItem(k: string) {
    this.#m.delete(k);
  }
  clear() {
    this.#m.clear();
  }
}

const jar = new Map<string, string>();
const documentStub = {
  get cookie() {
    return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  },
  set cookie(line: string) {
    const [pair, ...attrs] = line.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    const expires = attrs.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('expires='));
    if (expires && new Date(expires.slice(8)).getTime() <= Date.now()) jar.delete(name);
    else jar.set(name, value);
  },
  documentElement: { lang: '' },
};

export const reloads = { count: 0 };
Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true, writable: true });
Object.defineProperty(globalThis, 'sessionStorage', { value: new MemoryStorage(), configurable: true, writable: true });
Object.defineProperty(globalThis, 'document', { value: documentStub, configurable: true, writable: true });
Object.defineProperty(globalThis, 'location', {
  value: { reload: () => void reloads.count++, href: 'http://localhost/home/', pathname: '/home/', search: '' },
  configurable: true,
  writable: true,
});
