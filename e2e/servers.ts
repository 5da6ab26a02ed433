/** Ports and URLs of the e2e servers (see playwright.config.ts). */
// E2E_MAIN_PORT / E2E_SHORT_TTL_PORT let two runs share a machine (defaults unchanged).
export const MAIN_PORT = Number(process.env.E2E_MAIN_PORT ?? 8090);
export const SHORT_TTL_PORT = Number(process.env.E2E_SHORT_TTL_PORT ?? 8091);
export const MAIN = `http://localhost:${MAIN_PORT}`;
export const SHORT_TTL = `http://localhost:${SHORT_TTL_PORT}`;
export const VERSION = '1.21.2';
export const PASSWORD = 'Demo@2026';
export const dbFile = (name: 'main' | 'short-ttl') => `${process.env.E2E_RUN_DIR}/${name}.sqlite`;
