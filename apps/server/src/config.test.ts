import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.ts';

describe('config', () => {
  it('defaults to the embedded SQLite file with demo data', () => {
    const c = parseConfig({});
    expect(c.database.dialect).toBe('sqlite');
    expect(c.database.dialect === 'sqlite' && c.database.file).toBe(
      path.resolve(import.meta.dirname, '../../../data/console.sqlite'),
    );
    expect(c.demoSeed).toBe(true);
    expect(c.PORT).toBe(8080);
    expect(c.ACCESS_TOKEN_TTL_SECONDS).toBe(7200);
    expect(c.REFRESH_WINDOW_SECONDS).toBe(14 * 86400);
  });
  it('switches to PostgreSQL on a postgres:// URL, without demo data unless asked', () => {
    const c = parseConfig({ DATABASE_URL: 'postgres://u@db:5432/console' });
    expect(c.database).toEqual({ dialect: 'postgres', url: 'postgres://u@db:5432/console' });
    expect(c.demoSeed).toBe(false);
    expect(parseConfig({ DATABASE_URL: 'postgresql://x/y', DEMO_SEED: 'true' }).demoSeed).toBe(true);
  });
  it('lists every wrong variable in one message', () => {
    try {
      parseConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DEMO_SEED: 'maybe' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const msg = (e as Error).message;
      expect(msg).toMatch(/PORT/);
      expect(msg).toMatch(/LOG_LEVEL/);
      expect(msg).toMatch(/DEMO_SEED/);
    }
  });
});
