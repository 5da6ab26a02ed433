/** Ports and URLs of the e2e servers (see playwright.config.ts). */
// E2E_MAIN_PORT / E2E_SHORT_TTL_PORT let two runs share a machine (defaults unchanged).
export const MAIN_PORT = Number(process.env.E2E_MAIN_PORT ?? 8090);
export const SHORT_TTL_PORT = Number(process.env.E2E_SHORT_TTL_PORT ?? 8091);
export const MAIN = `http://localhost:${MAIN_PORT}`;
export const SHORT_TTL = `http://localhost:${SHORT_TTL_PORT}`;
/** The fake JD open platform (e2e/support/fake-jd.ts) the MAIN server authorizes JD apps against. */
export const JD_PORT = Number(process.env.E2E_JD_PORT ?? MAIN_PORT + 2);
export const JD_FAKE_EXPIRES_DAYS = 5;
export const E2E_JD_APP = { appKey: 'E2EJDAPPKEY0001', appSecret: 'e2e-jd-secret-0001' };
export const VERSION = '1.21.2';
export const PASSWORD = 'Demo@2026';
export const dbFile = (name: 'main' | 'short-ttl') => `${process.env.E2E_RUN_DIR}/${name}.sqlite`;
