import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/**
 * A local S3-compatible server (s3rver) on loopback with the console's bucket, and the settings
 * that point FILE_STORE=s3 at it. S3 is the one boundary the tests fake: s3rver answers the
 * AWS SDK's calls with S3's status codes and error names (a missing key is NoSuchKey).
 */
export async function s3Server() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'console-files', configs: [] }],
  });
  const { port } = (await server.run()) as unknown as { port: number };
  return {
    env: {
      FILE_STORE: 's3',
      S3_BUCKET: 'console-files',
      S3_PREFIX: 'test',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    dir,
    close: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
