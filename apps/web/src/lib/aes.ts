/**
 * AES calls (ARCHITECTURE.md "AES calls"): AES-256-GCM with a key derived by HKDF-SHA256 from the
 * caller's access token (empty salt, info "console-aes-v1"), so no key ships in the bundle
 * and it rotates with the token. Wire: `{ data: base64(ciphertext ‖ tag), iv: base64(12 bytes) }`.
 * TLS remains the real protection; this only keeps bodies out of casual proxies and logs.
 */
import { AES_INFO } from '@console/contract';

const encoder = new TextEncoder();
const keyCache = new Map<string, Promise<CryptoKey>>();

function deriveKey(token: string): Promise<CryptoKey> {
  let key = keyCache.get(token);
  if (!key) {
    key = (async () => {
      const ikm = await crypto.subtle.importKey('raw', encoder.encode(token), 'HKDF', false, ['deriveKey']);
      return crypto.subtle.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode(AES_INFO) },
        ikm,
        { name: 'AES-GCM', length: 256 },
        false,
        ['encrypt', 'decrypt'],
      );
    })();
    // One token at a time in practice; keep the cache from growing across refreshes.
    keyCache.clear();
    keyCache.set(token, key);
  }
  return key;
}

export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromBase64(b64: string): Uint8Array<ArrayBuffer> {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export async function encryptJson(token: string, value: unknown): Promise<{ data: string; iv: string }> {
  const key = await deriveKey(token);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, encoder.encode(JSON.stringify(value)));
  return { data: toBase64(new Uint8Array(sealed)), iv: toBase64(iv) };
}

export async function decryptJson(token: string, data: string, iv: string): Promise<unknown> {
  const key = await deriveKey(token);
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(iv) }, key, fromBase64(data));
  return JSON.parse(new TextDecoder().decode(plain));
}
