import net from 'node:net';

/**
 * What TRUST_PROXY may name (config.ts parses it once): proxy-addr's range names, addresses and
 * CIDRs: kept apart so config.ts stays the list of settings.
 */

/** proxy-addr's names for address ranges (Fastify compiles TRUST_PROXY with it). */
export const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IPv4 or IPv6 address, optionally with a prefix length (a CIDR). */
export function isAddressOrCidr(s: string): boolean {
  const [addr = '', prefix, ...rest] = s.split('/');
  const family = net.isIP(addr);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
