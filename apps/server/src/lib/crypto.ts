import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { promisify } from 'node:util';
import { AES_INFO } from '@console/contract';

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
// N=2^15, r=8 (OWASP's minimum for scrypt), ~32 MiB and ~50 ms per hash here.
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize('NFKC'), salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scryptAsync(password.normalize('NFKC'), Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(key, expected);
}

/** A fixed hash to verify against when the user does not exist, so timing does not tell. */
export const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** Opaque access tokens: 32 random bytes, base64url; only their SHA-256 is stored. */
export const newToken = () => randomBytes(32).toString('base64url');
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Keys of recent tokens (bench:items: HKDF and turning the bytes into a key object were half the AES cost of a call). */
const recentKeys = new Map<string, KeyObject>();
const RECENT_KEYS = 1000;

/**
 * AES envelope key: HKDF-SHA256(token, empty salt, "console-aes-v1", 32 bytes), as a key
 * object, kept for the last 1,000 tokens: a user's calls all use one token. The key opens only
 * that token's envelopes, and the server holds the token's session meanwhile anyway.
 */
export function aesKey(token: string): KeyObject {
  const known = recentKeys.get(token);
  if (known) return known;
  const key = createSecretKey(
    Buffer.from(hkdfSync('sha256', Buffer.from(token, 'utf8'), Buffer.alloc(0), AES_INFO, 32)),
  );
  if (recentKeys.size >= RECENT_KEYS) recentKeys.delete(recentKeys.keys().next().value!);
  recentKeys.set(token, key);
  return key;
}

/** `plaintext`: the JSON text, or its UTF-8 bytes as a cached answer holds them (no decode and re-encode). */
export function aesEncrypt(key: KeyObject, plaintext: string | Buffer): { data: string; iv: string } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const text = typeof plaintext === 'string' ? cipher.update(plaintext, 'utf8') : cipher.update(plaintext);
  const body = Buffer.concat([text, cipher.final(), cipher.getAuthTag()]);
  return { data: body.toString('base64'), iv: iv.toString('base64') };
}

/** Throws when the tag does not verify (wrong key, tampered body). */
export function aesDecrypt(key: KeyObject, data: string, iv: string): string {
  const raw = Buffer.from(data, 'base64');
  const ivBuf = Buffer.from(iv, 'base64');
  if (ivBuf.length !== 12 || raw.length < 16) throw new Error('bad AES envelope');
  const decipher = createDecipheriv('aes-256-gcm', key, ivBuf);
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([decipher.update(raw.subarray(0, raw.length - 16)), decipher.final()]).toString('utf8');
}
