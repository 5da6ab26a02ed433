import { randomBytes } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Server } from './s3-server.ts';

/**
 * The S3 fake itself (issue 37, decision 2026-12-06-s3-fake): real S3 is read-after-write
 * consistent — an object is there for the GET that follows its PUT's answer. s3rver 3.7.1 answered
 * a PUT before its file was written, and a CI run lost a day to a readiness probe that read too
 * soon. This holds the fake to S3's promise on its own, with many writes at once and objects big
 * enough that the file is still being written when the bytes have all been hashed.
 */
let s3: Awaited<ReturnType<typeof s3Server>>;
let client: S3Client;

beforeAll(async () => {
  s3 = await s3Server();
  client = new S3Client({
    endpoint: s3.env.S3_ENDPOINT,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY },
  });
});
afterAll(async () => {
  client?.destroy();
  await s3?.close();
});

describe('the S3 fake reads what it has just acknowledged', () => {
  it('every GET and HEAD straight after its PUT finds the object whole, 60 at once', async () => {
    const Bucket = s3.env.S3_BUCKET;
    const sizes = [0, 1, 1_000, 64 * 1024, 1024 * 1024, 4 * 1024 * 1024];
    const results = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const Key = `raw/${i}-${randomBytes(4).toString('hex')}`;
        const body = randomBytes(sizes[i % sizes.length]);
        await client.send(new PutObjectCommand({ Bucket, Key, Body: body }));
        const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
        const got = await client.send(new GetObjectCommand({ Bucket, Key }));
        const bytes = Buffer.from(await got.Body!.transformToByteArray());
        return { size: head.ContentLength, same: bytes.equals(body), expected: body.length };
      }),
    );
    for (const r of results) {
      expect(r.size).toBe(r.expected);
      expect(r.same).toBe(true);
    }
  }, 60_000);
});
