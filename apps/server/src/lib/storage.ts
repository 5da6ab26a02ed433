import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * File storage behind one interface (DESIGN "Files"): a local folder by default;
 * an S3-compatible bucket implements the same three calls for several instances.
 */
export interface Storage {
  put(data: Buffer, hint: string): Promise<{ key: string; size: number; sha256: string }>;
  get(key: string): Promise<Buffer>;
  remove(key: string): Promise<void>;
}

export function localStorage(root: string): Storage {
  const resolve = (key: string) => {
    const p = path.resolve(root, key);
    if (!p.startsWith(path.resolve(root) + path.sep)) throw new Error('storage key escapes the root');
    return p;
  };
  return {
    async put(data, hint) {
      const ext = path
        .extname(hint)
        .replace(/[^.a-zA-Z0-9]/g, '')
        .slice(0, 10);
      const day = new Date().toISOString().slice(0, 10);
      const key = `${day}/${randomUUID()}${ext}`;
      await fs.mkdir(path.dirname(resolve(key)), { recursive: true });
      await fs.writeFile(resolve(key), data);
      return { key, size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
    },
    get: (key) => fs.readFile(resolve(key)),
    async remove(key) {
      await fs.rm(resolve(key), { force: true });
    },
  };
}
