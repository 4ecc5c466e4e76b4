import { createHash } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { ValidationError } from '../../domain/errors';

/**
 * One uploaded file, whichever face it came through: GraphQL's `Upload` scalar (multipart request
 * spec) and REST's multipart/form-data both hand the services this shape. The bytes are read once,
 * as they arrive; nothing holds the whole file.
 */
export interface FileUpload {
  /** The name on the client; informative only. */
  filename: string;
  createReadStream(): Readable;
}

/** A file type recognised by its first bytes only (never by name or declared type). */
export interface FileKind {
  mimeType: string;
  extension: string;
  magic: Buffer;
}

export interface Inspected {
  kind: FileKind;
  sizeBytes: number;
  sha256: string;
}

/**
 * Sits between the upload and the storage: counts, hashes and sniffs the bytes on their way, and
 * fails the stream (so the storage write fails and leaves nothing) as soon as the file is too big,
 * of an unaccepted type, or turns out empty. Holds back at most the few bytes the longest magic needs.
 */
export class UploadInspector extends Transform {
  // Field names avoid `size`/`length`: stream consumers (e.g. @aws-sdk/lib-storage) read those as the body's length.
  private readonly hash = createHash('sha256');
  private readonly sniffBytes: number;
  private head: Buffer = Buffer.alloc(0);
  private seen = 0;
  private kind: FileKind | undefined;

  constructor(
    private readonly kinds: FileKind[],
    private readonly maxBytes: number,
    private readonly messages: { field: string; tooBig: string; wrongType: string; empty: string },
  ) {
    super();
    this.sniffBytes = Math.max(...kinds.map((k) => k.magic.length));
  }

  /** Valid once the stream has finished without error. */
  result(): Inspected {
    if (!this.kind) throw new Error('upload not inspected yet');
    return { kind: this.kind, sizeBytes: this.seen, sha256: this.hash.digest('hex') };
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) return done(this.fail('tooBig'));
    this.hash.update(chunk);
    if (this.kind) return done(null, chunk);
    this.head = Buffer.concat([this.head, chunk]);
    if (this.head.length < this.sniffBytes) return done();
    this.release(done);
  }

  override _flush(done: TransformCallback): void {
    if (this.seen === 0) return done(this.fail('empty'));
    if (this.kind) return done();
    this.release(done);
  }

  private release(done: TransformCallback): void {
    this.kind = this.kinds.find((k) => this.head.subarray(0, k.magic.length).equals(k.magic));
    if (!this.kind) return done(this.fail('wrongType'));
    const head = this.head;
    this.head = Buffer.alloc(0);
    done(null, head);
  }

  private fail(why: 'tooBig' | 'wrongType' | 'empty'): ValidationError {
    return ValidationError.field(this.messages.field, this.messages[why]);
  }
}
