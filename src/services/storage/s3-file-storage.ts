import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type ServerSideEncryption,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { DomainError, NotFoundError, ServiceUnavailableError } from '../../domain/errors';
import type { S3StorageOptions } from '../../platform/config';
import type { FileStorage, PutOptions } from './file-storage';

/** S3's multipart minimum: at most one part is held in memory at a time (queueSize 1). */
const PART_BYTES = 5 * 1024 * 1024;
/**
 * Tries per request (the SDK's default is 3): one retry still rides out a dropped connection or a
 * throttled answer, and a silent store costs 2 socket timeouts rather than 3.
 */
const MAX_ATTEMPTS = 2;

/**
 * FileStorage on an S3-compatible object store (@aws-sdk/client-s3). Uploads stream through
 * @aws-sdk/lib-storage (one PutObject for small files, a multipart upload aborted on failure for
 * larger ones), so a failed or refused upload leaves no object. Downloads stream the object's body.
 * The store being unreachable, silent (the timeouts) or misconfigured (no such bucket, bad
 * credentials) is a 503; the content's own errors (a refused or broken upload) pass through as they are.
 * Every write asks for the server-side encryption of S3_SSE when it is set (the PutObject or
 * CreateMultipartUpload request; the parts of a multipart upload inherit it). The S3 actions used are
 * listed in docs/operations.md "S3 permissions".
 */
export class S3FileStorage implements FileStorage {
  private readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
      // Checksums only where S3 requires them: S3-compatible servers do not all accept the newer
      // default (aws-chunked bodies with CRC32 trailers).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // The SDK sets no timeout at all by default: a silent store held a request as long as it stayed silent.
      // requestTimeout only logs a warning unless throwOnRequestTimeout is set (@smithy/node-http-handler).
      requestHandler: {
        connectionTimeout: options.timeouts.connectMs,
        socketTimeout: options.timeouts.socketMs,
        requestTimeout: options.timeouts.requestMs,
        throwOnRequestTimeout: true,
      },
      maxAttempts: MAX_ATTEMPTS,
    });
  }

  /** The encryption headers of every write (none when S3_SSE is unset: the bucket's default applies). */
  private get encryption(): { ServerSideEncryption?: ServerSideEncryption; SSEKMSKeyId?: string } {
    const sse = this.options.sse;
    if (!sse) return {};
    return { ServerSideEncryption: sse.algorithm, ...(sse.kmsKeyId ? { SSEKMSKeyId: sse.kmsKeyId } : {}) };
  }

  async put(key: string, content: Buffer | Readable, options: PutOptions = {}): Promise<void> {
    if (options.retainUntil) {
      if (!Buffer.isBuffer(content)) throw new Error('a retained object is written from a buffer');
      // Object Lock in compliance mode; S3 wants the body's MD5 (or a checksum) with a retention.
      const command = new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: key,
        Body: content,
        ContentMD5: createHash('md5').update(content).digest('base64'),
        ObjectLockMode: 'COMPLIANCE',
        ObjectLockRetainUntilDate: options.retainUntil,
        ...this.encryption,
      });
      await this.client.send(command).catch((err: unknown) => {
        throw unavailable(err);
      });
      return;
    }
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: key, Body: content, ...this.encryption },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    });
    // The content's own failure (a refused or broken upload) is the one to report, even when
    // aborting the multipart upload then fails too.
    let contentError: unknown;
    if (!Buffer.isBuffer(content)) content.on('error', (err) => (contentError ??= err));
    await upload.done().catch((err: unknown) => {
      throw unavailable(contentError ?? err);
    });
  }

  async get(key: string): Promise<Readable> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return object.Body as Readable;
    } catch (err) {
      throw isMissing(err) ? new NotFoundError() : unavailable(err);
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key })).catch((err: unknown) => {
      throw unavailable(err);
    });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw unavailable(err);
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client
        .send(new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: `${prefix}/`, ContinuationToken: token }))
        .catch((err: unknown) => {
          throw unavailable(err);
        });
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }
}

/** The object (not the bucket) is missing. */
const isMissing = (err: unknown) => err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound');

/** Our own errors (a refused upload) stay; the store's failures become 503, the cause kept for the log. */
function unavailable(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  return Object.assign(new ServiceUnavailableError(), { cause: err });
}
