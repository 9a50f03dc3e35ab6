import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { digestStream, type Digest } from './digest';
import { assertUploadKey, newUploadKey } from './keys';
import type { ObjectStorage } from './types';
import type { Config } from '../config';

/** The bucket and credentials as the configuration reads them from S3_* (config.ts). */
export type S3Settings = Config['storage']['s3'];

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Any S3-compatible store (AWS, MinIO, R2…). The browser PUTs straight to the bucket with a presigned URL; when
 * the size is known it is part of the signature, so a bigger body is refused by the store itself. The bucket
 * needs a CORS rule allowing PUT from Verity's origin.
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly s: S3Settings) {
    this.client = new S3Client({
      region: s.region,
      endpoint: s.endpoint,
      forcePathStyle: s.forcePathStyle,
      ...(s.accessKeyId &&
        s.secretAccessKey && { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } }),
    });
  }

  async createUploadUrl(key: string, opts: { maxBytes: number; expiresInSeconds: number; size?: number }) {
    assertUploadKey(key);
    const cmd = new PutObjectCommand({
      Bucket: this.s.bucket,
      Key: key,
      ...(opts.size !== undefined && { ContentLength: opts.size }),
    });
    return getSignedUrl(this.client, cmd, { expiresIn: opts.expiresInSeconds });
  }

  async write(key: string, bytes: Uint8Array): Promise<void> {
    assertUploadKey(key);
    await this.client.send(new PutObjectCommand({ Bucket: this.s.bucket, Key: key, Body: bytes }));
  }

  async head(key: string) {
    assertUploadKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.s.bucket, Key: key }));
      return { size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async readStart(key: string, bytes: number): Promise<Uint8Array> {
    assertUploadKey(key);
    const res = await this.client.send(
      new GetObjectCommand({ Bucket: this.s.bucket, Key: key, Range: `bytes=0-${Math.max(0, bytes - 1)}` }),
    );
    return res.Body ? res.Body.transformToByteArray() : new Uint8Array();
  }

  async read(key: string): Promise<Uint8Array> {
    assertUploadKey(key);
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.s.bucket, Key: key }));
    return res.Body ? res.Body.transformToByteArray() : new Uint8Array();
  }

  async stream(key: string): Promise<Readable> {
    assertUploadKey(key);
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.s.bucket, Key: key }));
    const body = res.Body;
    if (body instanceof Readable) return body;
    return Readable.from(body ? await body.transformToByteArray() : new Uint8Array());
  }

  async digest(key: string): Promise<Digest> {
    return digestStream(await this.stream(key));
  }

  async seal(key: string, organizationId: string): Promise<string> {
    assertUploadKey(key);
    const sealed = newUploadKey(organizationId);
    await this.client.send(
      new CopyObjectCommand({ Bucket: this.s.bucket, Key: sealed, CopySource: `${this.s.bucket}/${key}` }),
    );
    return sealed;
  }

  async delete(key: string): Promise<void> {
    assertUploadKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.s.bucket, Key: key }));
  }

  async list(prefix: string): Promise<Array<{ key: string; modifiedAt: Date; size: number }>> {
    const out: Array<{ key: string; modifiedAt: Date; size: number }> = [];
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.s.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const o of res.Contents ?? []) {
        if (o.Key) out.push({ key: o.Key, modifiedAt: o.LastModified ?? new Date(0), size: o.Size ?? 0 });
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
    return out;
  }
}
