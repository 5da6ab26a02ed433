import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { Config } from '../config.ts';
import { newStorageKey, probeStorage, sha256Of, StoredFileMissing, type Storage } from './storage.ts';

/**
 * Files in an S3-compatible bucket (AWS SDK v3): for installations whose files outgrow the
 * database. Every instance is given the same bucket; keys are the same as the other stores'.
 * Credentials come from S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY, or the SDK's usual chain
 * (instance roles) when those are unset.
 */
export function s3Storage(s3: NonNullable<Config['s3']>): Storage {
  const client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
    credentials: s3.credentials,
  });
  const Bucket = s3.bucket;
  const name = (key: string) => (s3.prefix ? `${s3.prefix}/${key}` : key);
  const store: Storage = {
    async put(data, hint, sha256) {
      const key = newStorageKey(hint);
      await client.send(new PutObjectCommand({ Bucket, Key: name(key), Body: data, ContentLength: data.length }));
      return { key, size: data.length, sha256: sha256 ?? sha256Of(data) };
    },
    async get(key) {
      try {
        const r = await client.send(new GetObjectCommand({ Bucket, Key: name(key) }));
        return Buffer.from(await r.Body!.transformToByteArray());
      } catch (e) {
        if (e instanceof NoSuchKey || (e instanceof S3ServiceException && e.$metadata.httpStatusCode === 404))
          throw new StoredFileMissing(key);
        throw e;
      }
    },
    async stream(key) {
      try {
        const r = await client.send(new GetObjectCommand({ Bucket, Key: name(key) }));
        // In Node the SDK's body is the HTTP response itself: piped out as it arrives.
        return { body: r.Body as Readable, size: r.ContentLength ?? 0 };
      } catch (e) {
        if (e instanceof NoSuchKey || (e instanceof S3ServiceException && e.$metadata.httpStatusCode === 404))
          throw new StoredFileMissing(key);
        throw e;
      }
    },
    async remove(key) {
      // S3 answers a delete of a missing key with success, as the other stores do.
      await client.send(new DeleteObjectCommand({ Bucket, Key: name(key) }));
    },
    check: () => probeStorage(store),
    async *listOlderThan(before) {
      const Prefix = s3.prefix ? `${s3.prefix}/` : undefined;
      let ContinuationToken: string | undefined;
      do {
        const r = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
        const keys = (r.Contents ?? [])
          .filter((o) => o.Key && o.LastModified && o.LastModified < before)
          .map((o) => o.Key!.slice(Prefix?.length ?? 0));
        if (keys.length) yield keys;
        ContinuationToken = r.IsTruncated ? r.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
  return store;
}
