/**
 * Ports and URLs of the e2e servers (see playwright.config.ts).
 *
 * Each Playwright worker has its own pair of servers on its own SQLite files (issue 37): specs in
 * different workers never see each other's data, and a worker's slot is its parallel index, which
 * Playwright sets in the worker's environment before this file is loaded (0 in the runner, whose
 * config starts every slot's servers). A worker restarted after a failure keeps its slot.
 *
 * E2E_MAIN_PORT (default 8090) moves the whole range, so that two runs can share a machine:
 * slot N's MAIN is E2E_MAIN_PORT + 10·N and its SHORT_TTL the port after it; the fake JD is
 * E2E_MAIN_PORT + 2, shared by every slot (it only sends the browser back to the redirect_uri).
 */
const BASE_PORT = Number(process.env.E2E_MAIN_PORT ?? 8090);
/**
 * How many workers, each with its own servers (E2E_WORKERS, default 1). One on CI's two cores: a
 * run there already keeps them ~85 % busy (Chromium, the server, the build), and two workers each
 * ran about half as fast (issue 37, measured in the decision).
 */
export const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 1));
/** This process's slot: Playwright's parallel index in a worker. */
export const SLOT = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const mainPortOf = (slot: number) => BASE_PORT + 10 * slot;
export const shortTtlPortOf = (slot: number) => mainPortOf(slot) + 1;
export const MAIN_PORT = mainPortOf(SLOT);
export const SHORT_TTL_PORT = shortTtlPortOf(SLOT);
export const MAIN = `http://localhost:${MAIN_PORT}`;
export const SHORT_TTL = `http://localhost:${SHORT_TTL_PORT}`;
/** The fake JD open platform (e2e/support/fake-jd.ts) every MAIN server authorizes JD apps against. */
export const JD_PORT = Number(process.env.E2E_JD_PORT ?? BASE_PORT + 2);
export const JD_FAKE_EXPIRES_DAYS = 5;
export const E2E_JD_APP = { appKey: 'E2EJDAPPKEY0001', appSecret: 'e2e-jd-secret-0001' };
export const VERSION = '1.21.2';
export const PASSWORD = 'Demo@2026';
/** A slot's database file (the config names them so). */
export const dbFileOf = (name: 'main' | 'short-ttl', slot: number) =>
  `${process.env.E2E_RUN_DIR}/${name}-${slot}.sqlite`;
export const dbFile = (name: 'main' | 'short-ttl') => dbFileOf(name, SLOT);
