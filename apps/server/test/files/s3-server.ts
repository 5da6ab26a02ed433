import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';

/** The part of s3rver's file store that `putObject` below uses. */
interface S3rverStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: { bucket: string; key: string; content: Buffer | Readable; metadata: unknown }): Promise<{
    size: number;
    md5: string;
  }>;
}

/**
 * A local S3-compatible server (s3rver) on loopback with the console's bucket, and the settings
 * that point FILE_STORE=s3 at it. S3 is the one boundary the tests fake: s3rver answers the
 * AWS SDK's calls with S3's status codes and error names (a missing key is NoSuchKey).
 */
export async function s3Server() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-s3-'));
  const serve = async (port: number) => {
    const server = new S3rver({
      port,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'console-files', configs: [] }],
    });
    answerPutAfterTheWrite((server as unknown as { store: S3rverStore }).store);
    const address = (await server.run()) as unknown as { port: number };
    return { server, port: address.port };
  };
  let running: Awaited<ReturnType<typeof serve>> | null = await serve(0);
  const port = running.port;
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
    /** The bucket out of reach: nothing listens on its port (a connection is refused). */
    async stop() {
      await running?.server.close();
      running = null;
    },
    /** Back on the same port, with the objects it held. */
    async start() {
      running ??= await serve(port);
    },
    close: async () => {
      await running?.server.close();
      running = null;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver 3.7.1 answers a PUT when its hashing stream has seen the bytes, not when the object's
 * file is written: its write stream may not even have opened the file yet. A GET straight after
 * then found no object (NoSuchKey), and the stores test's readiness probe failed on a loaded CI
 * machine. Real S3 is read-after-write consistent, so the fake must be too: this put answers
 * only once the file is written and closed.
 */
function answerPutAfterTheWrite(store: S3rverStore) {
  store.putObject = async function (object) {
    const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
    await fs.promises.mkdir(path.dirname(objectPath), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        md5.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    await pipeline(content, count, fs.createWriteStream(objectPath));
    const digest = md5.digest('hex');
    await this.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}
