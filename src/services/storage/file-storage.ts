import type { Readable } from 'node:stream';

/**
 * Where uploaded files live, outside the database. Keys are opaque strings chosen by the caller
 * (e.g. `kyc/<uuid>`); nothing about where or how a file is kept leaks out, so an S3-compatible
 * implementation can replace the local one without touching the services.
 */
export interface PutOptions {
  /**
   * Write once, keep until then: S3 Object Lock in compliance mode (nobody, the bucket's owner
   * included, can delete or overwrite the object before that date; the bucket must have Object Lock
   * enabled). The local store cannot enforce it and ignores it.
   */
  retainUntil?: Date;
}

export interface FileStorage {
  /** Stores the whole content under `key`; a failed write leaves nothing behind. */
  put(key: string, content: Buffer | Readable, options?: PutOptions): Promise<void>;
  /** The content as a stream; a missing key is NotFoundError. */
  get(key: string): Promise<Readable>;
  /** Removes the file; a missing key is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The keys under `prefix/` (one level or more deep), sorted. */
  list(prefix: string): Promise<string[]>;
}
