import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets at rest (JD app secrets and OAuth tokens): AES-256-GCM under a key that lives in the
 * configuration or a key file, never in the database, so a copy of the database alone reveals
 * nothing. Each value gets a fresh 12-byte IV; `purpose` is the additional authenticated data,
 * so a ciphertext moved to another column (a token into the secret's place) fails to open.
 * Stored as `v1.<iv>.<ciphertext+tag>` (base64url), the version leaving room for a key rotation.
 */
export interface SecretBox {
  seal(plain: string, purpose: string): string;
  open(sealed: string, purpose: string): string;
}

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('secret-box key must be 32 bytes');
  return {
    seal(plain, purpose) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(purpose, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed, purpose) {
      const [v, iv, body] = sealed.split('.');
      if (v !== 'v1' || !iv || !body) throw new Error('not a sealed secret');
      const raw = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(purpose, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      return Buffer.concat([decipher.update(raw.subarray(0, raw.length - 16)), decipher.final()]).toString('utf8');
    },
  };
}

export const SECRET_KEY_FILE = 'jd-secret.key';

/**
 * The configured key, or the embedded default's key file under DATA_DIR (created once with 32
 * random bytes, readable by the owner only). Written whole to a temporary file and linked into
 * place, so two processes starting together cannot each use a different key: the loser of the
 * link reads the winner's, and no one reads a half-written file.
 */
export function loadSecretKey(configured: Buffer | null, dataDir: string): Buffer {
  if (configured) return configured;
  const file = path.join(dataDir, SECRET_KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, randomBytes(32).toString('hex') + '\n', { mode: 0o600 });
    try {
      fs.linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      fs.unlinkSync(tmp);
    }
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte hex key; fix or remove it`);
  return key;
}
