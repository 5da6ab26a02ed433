import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.ts';

const KEY = 'ab'.repeat(32);

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
    const c = parseConfig({ DATABASE_URL: 'postgres://u@db:5432/console', JD_SECRET_KEY: KEY });
    expect(c.database).toEqual({
      dialect: 'postgres',
      url: 'postgres://u@db:5432/console',
      directUrl: 'postgres://u@db:5432/console',
      poolSize: 10,
      readPoolSize: 4,
      poolWaitMs: 10_000,
      statementTimeoutMs: 300_000,
      idleInTransactionMs: 60_000,
    });
    expect(c.demoSeed).toBe(false);
    expect(parseConfig({ DATABASE_URL: 'postgresql://x/y', DEMO_SEED: 'true', JD_SECRET_KEY: KEY }).demoSeed).toBe(
      true,
    );
  });
  // Issue 38 row 3: migrations and start-up locks take session locks, which a transaction pooler
  // (DATABASE_URL at PgBouncer) leaks: they have an address of their own.
  it('takes DATABASE_DIRECT_URL for migrations and start-up locks (default DATABASE_URL), PostgreSQL only', () => {
    const pooled = 'postgres://u@pgbouncer:6432/console';
    const direct = 'postgres://u@db:5432/console';
    const c = parseConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: ` ${direct} `, JD_SECRET_KEY: KEY });
    expect(c.database).toMatchObject({ url: pooled, directUrl: direct });
    const timeouts = parseConfig({
      DATABASE_URL: pooled,
      JD_SECRET_KEY: KEY,
      DATABASE_POOL_WAIT_SECONDS: '0.5',
      DATABASE_STATEMENT_TIMEOUT_SECONDS: '0',
      DATABASE_IDLE_IN_TRANSACTION_SECONDS: '30',
    });
    expect(timeouts.database).toMatchObject({ poolWaitMs: 500, statementTimeoutMs: 0, idleInTransactionMs: 30_000 });
    for (const env of [
      { DATABASE_DIRECT_URL: direct },
      { DATABASE_URL: 'data/console.sqlite', DATABASE_DIRECT_URL: direct },
      { DATABASE_URL: pooled, DATABASE_DIRECT_URL: 'db:5432/console', JD_SECRET_KEY: KEY },
    ])
      expect(() => parseConfig(env)).toThrow(/DATABASE_DIRECT_URL: a postgres:\/\/… address/);
    expect(() => parseConfig({ DATABASE_URL: pooled, JD_SECRET_KEY: KEY, DATABASE_POOL_WAIT_SECONDS: '0' })).toThrow(
      /DATABASE_POOL_WAIT_SECONDS/,
    );
  });
  // Issue 38 item 4: a streaming replica for the list pages, counts and exports, PostgreSQL only.
  it('takes DATABASE_READ_URL for a replica with its own pool size (PostgreSQL only), and none by default', () => {
    const primary = 'postgres://u@db:5432/console';
    const replica = 'postgres://u@replica:5432/console';
    expect(parseConfig({ DATABASE_URL: primary, JD_SECRET_KEY: KEY }).database).not.toHaveProperty('readUrl');
    const c = parseConfig({
      DATABASE_URL: primary,
      DATABASE_READ_URL: ` ${replica} `,
      DATABASE_REPLICA_POOL_SIZE: '6',
      JD_SECRET_KEY: KEY,
    });
    expect(c.database).toMatchObject({ url: primary, readUrl: replica, replicaPoolSize: 6, readPoolSize: 4 });
    expect(
      parseConfig({ DATABASE_URL: primary, DATABASE_READ_URL: replica, JD_SECRET_KEY: KEY }).database,
    ).toMatchObject({ replicaPoolSize: 4 });
    for (const env of [
      { DATABASE_READ_URL: replica },
      { DATABASE_URL: 'data/console.sqlite', DATABASE_READ_URL: replica },
      { DATABASE_URL: primary, DATABASE_READ_URL: 'replica:5432/console', JD_SECRET_KEY: KEY },
    ])
      expect(() => parseConfig(env)).toThrow(/DATABASE_READ_URL: a postgres:\/\/… address of a streaming replica/);
  });
  // Issue 27, finding 7: an instance started without the key generated one of its own into its
  // DATA_DIR and could read no JD secret the other instances had sealed.
  it('refuses PostgreSQL without JD_SECRET_KEY, naming the setting; SQLite still starts without it', () => {
    for (const env of [
      { DATABASE_URL: 'postgres://u@db:5432/console' },
      { DATABASE_URL: 'postgresql://u@db/console', JD_SECRET_KEY: '  ' },
    ]) {
      let error: unknown;
      try {
        parseConfig(env);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/JD_SECRET_KEY: required with PostgreSQL/);
    }
    expect(parseConfig({ DATABASE_URL: 'postgres://u@db/console', JD_SECRET_KEY: KEY }).JD_SECRET_KEY).toEqual(
      Buffer.from(KEY, 'hex'),
    );
    expect(parseConfig({}).JD_SECRET_KEY).toBeNull();
  });
  it('migrates at start unless MIGRATE_ON_START is false', () => {
    expect(parseConfig({}).MIGRATE_ON_START).toBe(true);
    expect(parseConfig({ MIGRATE_ON_START: 'false' }).MIGRATE_ON_START).toBe(false);
    expect(() => parseConfig({ MIGRATE_ON_START: 'later' })).toThrow(/MIGRATE_ON_START/);
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

  it('finding 6 (issue 26): TRUST_PROXY names the proxies, never "trust every sender" nor a hop count', () => {
    expect(parseConfig({}).TRUST_PROXY).toBe(false);
    for (const off of ['', 'false', 'off', 'no', '0'])
      expect(parseConfig({ TRUST_PROXY: off }).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: '127.0.0.1' }).TRUST_PROXY).toEqual(['127.0.0.1']);
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    const refusal = (value: string) => {
      try {
        parseConfig({ TRUST_PROXY: value });
      } catch (e) {
        expect(e, value).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      return expect.unreachable(value);
    };
    for (const everything of ['true', 'yes', 'on', 'TRUE']) {
      expect(refusal(everything)).toMatch(
        /TRUST_PROXY: trusting every sender lets any client choose its address.*CIDRs/,
      );
    }
    for (const hops of ['1', '2']) expect(refusal(hops)).toMatch(/TRUST_PROXY: a hop count cannot tell the proxy/);
    for (const wrong of ['proxy.local', '10.0.0.0/33', '300.1.1.1', '-1', '1.5', '10.0.0.1,,x', '::1/129']) {
      expect(refusal(wrong)).toMatch(/TRUST_PROXY: want the proxies' addresses/);
    }
  });
  it('finding 11 (issue 26): PUBLIC_URL is an origin users open, nothing else', () => {
    expect(parseConfig({}).PUBLIC_URL).toBe(null);
    expect(parseConfig({ PUBLIC_URL: 'https://console.example.com/' }).PUBLIC_URL).toBe('https://console.example.com');
    expect(parseConfig({ PUBLIC_URL: 'http://localhost:8090' }).PUBLIC_URL).toBe('http://localhost:8090');
    for (const wrong of [
      'console.example.com',
      'ftp://console.example.com',
      'javascript:alert(1)',
      'https://console.example.com/home/',
      'https://console.example.com/?x=1',
      'https://console.example.com/#x',
      'https://user:pw@console.example.com',
    ]) {
      expect(() => parseConfig({ PUBLIC_URL: wrong }), wrong).toThrow(/PUBLIC_URL: want the origin users open/);
    }
  });
});
