import { createHash } from 'node:crypto';
import { PassThrough, Transform, type Readable, type TransformCallback } from 'node:stream';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { CodedError } from '../domain/errors';
import { HttpError, type ErrorCode } from './errors';
import { present } from '../platform/invariant';
import type { FileUpload } from '../services/storage/upload';
import { checkDepth } from './json-body';

/**
 * The one multipart/form-data parser of both faces (busboy): REST's form (POST /kyc/documents) and
 * /graphql's GraphQL multipart request spec. Files are never buffered: each file part reaches its
 * operation as an `Upload` whose stream comes straight from the request. Every emitter here (the
 * parser, each part stream, the hashing stream) keeps an 'error' listener for its whole life, so a
 * broken body is a 4xx for whoever is waiting on it and never an unhandled 'error' event.
 *
 * Limits (docs/api.md "Limits"): the whole request `UPLOAD_MAX_BYTES` + `BODY_LIMIT` (capRequest),
 * at most 30 parts, 20 text fields and 5 file parts (413 above); a text field's value up to the
 * face's field size (413 above); a part's headers up to 16 KiB (busboy's fixed limit; 400 above).
 */
export const MULTIPART_LIMITS = { parts: 30, fields: 20, files: 5, headerBytes: 16 * 1024 };
/** A REST form field's value (the GraphQL face allows its `operations` the GraphQL body limit). */
export const FORM_FIELD_BYTES = 64 * 1024;

export interface UploadLimits {
  /** Largest file (the services refuse more with 422). */
  maxFileBytes: number;
  /** Largest whole multipart request: the file plus room for the other fields (413 above). */
  maxRequestBytes: number;
}

/**
 * Refuses a request whose declared length is over the cap before reading it (413), and cuts off one
 * that grows past it while streaming (chunked): its file stream then fails and nothing is stored.
 * Once the answer is sent, whatever the operation did not read is drained unparsed, as Node does
 * for any unread body, so a refused upload never stalls the connection.
 */
function capRequest(req: Request, res: Response, maxBytes: number): void {
  if (Number(req.get('content-length') ?? 0) > maxBytes) throw HttpError.payloadTooLarge();
  let seen = 0;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > maxBytes) req.destroy(); // no answer can reach a client still sending: the connection goes
  });
  res.on('finish', () => {
    if (req.complete || req.destroyed) return;
    req.unpipe();
    req.resume();
  });
}

/** Anything that breaks a file stream, as the client's error: 413 for sizes, 400 for a malformed or cut-short body. */
export function uploadError(err: unknown): CodedError<ErrorCode> {
  if (err instanceof CodedError) return err;
  return (err as { status?: unknown } | null)?.status === 413 ? HttpError.payloadTooLarge() : HttpError.malformedMultipart();
}

/** Passes a part's bytes on and hashes them (SHA-256) on the way: the digest is ready when the part has been read to its end. */
class HashedPart extends Transform {
  private readonly hash = createHash('sha256');
  readonly digest: Promise<string>;
  private settle!: { resolve(hex: string): void; reject(err: Error): void };

  constructor() {
    super();
    this.digest = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    this.digest.catch(() => undefined); // nobody may ask for it
    this.on('error', () => undefined); // whole life: readers get the error through their own stream (see Upload)
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.settle.resolve(this.hash.digest('hex'));
    done();
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.settle.reject(uploadError(err)); // no-op once resolved
    done(err);
  }
}

/**
 * One file of a multipart request: a promise of the file for the `Upload` scalar (resolved when its
 * part begins, rejected with a 4xx if it never does), and the SHA-256 of its bytes for idempotency
 * fingerprints. `toJSON` keeps the bytes' stand-in out of anything that serialises a body.
 */
export class Upload {
  readonly promise: Promise<FileUpload>;
  private settle!: { resolve(file: FileUpload): void; reject(err: CodedError<ErrorCode>): void };
  private part?: HashedPart;

  constructor() {
    this.promise = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    this.promise.catch(() => undefined); // an operation refused before it reads the file must not leave an unhandled rejection
  }

  get begun(): boolean {
    return this.part !== undefined;
  }

  /** The parser: the file's part has begun. */
  begin(filename: string, source: Readable): void {
    const part = new HashedPart();
    this.part = part;
    source.on('error', (err) => part.destroy(uploadError(err)));
    source.on('close', () => !source.readableEnded && part.destroy(HttpError.malformedMultipart()));
    // A part nobody reads any more is drained, never left to stall the parser (and the request) behind it.
    part.on('close', () => {
      source.unpipe(part);
      source.resume();
    });
    source.pipe(part);
    this.settle.resolve({
      filename,
      createReadStream: () => {
        // The request may have broken before the operation got to the file.
        if (part.errored) throw uploadError(part.errored);
        if (part.destroyed) throw HttpError.malformedMultipart();
        // The reader's own stream: a reader that gives up (destroys it) leaves the part, and its digest, intact.
        const out = new PassThrough();
        part.on('error', (err) => out.destroy(uploadError(err)));
        return part.pipe(out);
      },
    });
  }

  /** The parser: the request broke (or the file never came). */
  fail(err: CodedError<ErrorCode>): void {
    if (this.part) this.part.destroy(err);
    else this.settle.reject(err);
  }

  /**
   * The SHA-256 (hex) of the file's bytes. Reads whatever the operation left unread to the end of
   * the part, so ask only before the operation starts or once it has finished. Rejects with a 4xx
   * when the file never came or its part broke.
   */
  async sha256(): Promise<string> {
    await this.promise;
    const part = present(this.part, 'the begun part');
    part.unpipe();
    part.resume();
    return part.digest;
  }

  toJSON(): string {
    return 'Upload';
  }
}

/**
 * What identifies a request's files beyond its text: each file's name and SHA-256, in the order the
 * request gave them. Undefined without files. Reads the files to their end (see `Upload.sha256`).
 */
export function uploadsDigest(uploads: readonly Upload[]): (() => Promise<string>) | undefined {
  if (uploads.length === 0) return undefined;
  return async () => {
    const each = await Promise.all(uploads.map(async (u) => `${JSON.stringify((await u.promise).filename)} ${await u.sha256()}`));
    return each.join('\n');
  };
}

/** A face's reading of the parts: when its body is whole enough to hand on. */
interface Face<T> {
  /** A text field; throws a domain or transport error to refuse the request. */
  field(name: string, value: string): void;
  /** The Upload this file part feeds, or undefined to drain it unread; throws to refuse the request. */
  file(name: string): Upload | undefined;
  /** The body, once the operation can start (every file it takes has begun), else undefined. */
  ready(): T | undefined;
  /** The body at the end of the form; throws if it is incomplete. */
  end(): T;
}

function readParts<T>(req: Request, res: Response, limits: UploadLimits, fieldBytes: number, face: Face<T>): Promise<T> {
  let parser: busboy.Busboy;
  try {
    capRequest(req, res, limits.maxRequestBytes);
    // `parts` one over ours: busboy reports reaching its limit, ours is exceeding it.
    const { parts, fields, files } = MULTIPART_LIMITS;
    parser = busboy({ headers: req.headers, limits: { parts: parts + 1, fields, files, fieldSize: fieldBytes } });
  } catch (err) {
    return Promise.reject(err instanceof CodedError ? err : HttpError.malformedMultipart()); // e.g. no boundary parameter
  }
  return new Promise<T>((resolve, reject) => {
    const uploads: Upload[] = [];
    let answered = false;
    let failed = false;
    const fail = (err: CodedError<ErrorCode>) => {
      if (failed) return;
      failed = true;
      // Stop parsing: busboy may report further errors (a destroyed parser reports one more); its listener stays.
      req.unpipe(parser);
      parser.destroy();
      for (const upload of uploads) upload.fail(err);
      if (!answered) {
        answered = true;
        reject(err);
      }
      // Whatever the client still sends is drained once the answer is out (capRequest).
    };
    const step = (read: () => T | undefined) => {
      if (failed) return;
      try {
        const body = read();
        if (body !== undefined && !answered) {
          answered = true;
          resolve(body);
        }
      } catch (err) {
        fail(uploadError(err));
      }
    };
    parser.on('field', (name, value, info) =>
      step(() => {
        if (info.valueTruncated) throw HttpError.payloadTooLarge();
        face.field(name, value);
        return face.ready();
      }),
    );
    parser.on('file', (name, stream, info) => {
      stream.on('error', () => undefined); // whole life: errors reach the reader through its Upload
      let upload: Upload | undefined;
      step(() => {
        upload = face.file(name);
        return undefined;
      });
      if (failed || !upload) return void stream.resume();
      uploads.push(upload);
      upload.begin(info.filename ?? '', stream);
      step(() => face.ready());
    });
    for (const limit of ['partsLimit', 'fieldsLimit', 'filesLimit'] as const) parser.on(limit, () => fail(HttpError.payloadTooLarge()));
    parser.on('error', () => fail(HttpError.malformedMultipart()));
    parser.on('close', () => step(() => face.end()));
    req.on('error', () => fail(HttpError.malformedMultipart()));
    req.on('close', () => !req.complete && fail(HttpError.malformedMultipart()));
    req.pipe(parser);
  });
}

/**
 * REST: multipart/form-data → a plain body, text fields as strings and the one expected file as an
 * `Upload`. The body is answered as soon as the file's part begins; text fields must come before
 * the file (as browsers and HTTP clients send them in the order they were added) — later ones are
 * ignored, as are other file parts (drained).
 *
 * A body that cannot be parsed (no boundary, a malformed part header, a part cut short, the request
 * aborted) is 400 `Malformed multipart body.`, reported to the request or to whoever is reading the
 * file; another content type is 415; a request or a field over its limit is 413.
 */
export function readForm(req: Request, res: Response, fileField: string, limits: UploadLimits): Promise<Record<string, unknown>> {
  const type = req.is('multipart/form-data');
  if (type === null) return Promise.resolve({}); // no body at all: the fields are simply missing (422)
  if (type === false) return Promise.reject(HttpError.unsupportedMediaType());
  const body: Record<string, unknown> = {};
  let upload: Upload | undefined;
  return readParts(req, res, limits, FORM_FIELD_BYTES, {
    field(name, value) {
      if (!upload && !(name in body)) body[name] = value;
    },
    file(name) {
      if (name !== fileField || upload) return undefined;
      upload = new Upload();
      body[fileField] = upload;
      return upload;
    },
    ready: () => (upload ? body : undefined),
    end: () => body,
  });
}

/** `operations` and `map`: client JSON like any body, so bounded in depth before it is parsed (docs/api.md, "JSON nesting"). */
const parseJson = (text: string): unknown => {
  checkDepth(text);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw HttpError.malformedMultipart();
  }
};
const isContainer = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Puts each mapped file's `Upload` where `map` says, in place of the `null` the spec requires there
 * (`variables.input.file`). Paths walk what `operations` already holds, so no key is created, and
 * no prototype is reachable (own properties only, `__proto__` refused).
 */
function placeUploads(operations: Record<string, unknown>, map: unknown, maxFiles: number): Map<string, Upload> {
  if (!isContainer(map) || Array.isArray(map)) throw HttpError.malformedMultipart();
  const entries = Object.entries(map);
  if (entries.length > maxFiles) throw HttpError.payloadTooLarge();
  const files = new Map<string, Upload>();
  for (const [name, paths] of entries) {
    if (!Array.isArray(paths) || paths.length === 0) throw HttpError.malformedMultipart();
    const upload = new Upload();
    for (const path of paths) {
      if (typeof path !== 'string') throw HttpError.malformedMultipart();
      const keys = path.split('.');
      const last = keys.pop();
      let at: unknown = operations;
      for (const key of keys) at = isContainer(at) && key !== '__proto__' && Object.hasOwn(at, key) ? at[key] : undefined;
      if (!isContainer(at) || last === undefined || last === '__proto__' || !Object.hasOwn(at, last) || at[last] !== null) throw HttpError.malformedMultipart();
      at[last] = upload;
    }
    files.set(name, upload);
  }
  return files;
}

/**
 * /graphql: the GraphQL multipart request spec — `operations` (the JSON body), then `map` (file
 * part name → paths in `operations`), then the files — with at most `maxFiles` files (413 above).
 * Answers `operations` with the `Upload`s in place once every mapped file's part has begun (so a
 * broken part header is refused before the operation runs). Parts out of order, invalid JSON, a
 * path to no `null`, or a mapped file missing at the end are 400 `Malformed multipart body.`;
 * unmapped or repeated file parts and fields after `map` are ignored (files drained).
 */
export function readGraphqlMultipart(
  req: Request,
  res: Response,
  limits: UploadLimits & { maxOperationsBytes: number; maxFiles: number },
): Promise<{ operations: Record<string, unknown>; uploads: Upload[] }> {
  let operations: Record<string, unknown> | undefined;
  let files: Map<string, Upload> | undefined;
  const complete = () => (operations && files && [...files.values()].every((u) => u.begun) ? { operations, uploads: [...files.values()] } : undefined);
  return readParts(req, res, limits, limits.maxOperationsBytes, {
    field(name, value) {
      if (files) return;
      if (!operations) {
        const parsed = name === 'operations' ? parseJson(value) : undefined;
        if (!isContainer(parsed)) throw HttpError.malformedMultipart();
        operations = parsed;
      } else if (name === 'map') files = placeUploads(operations, parseJson(value), limits.maxFiles);
      else throw HttpError.malformedMultipart();
    },
    file(name) {
      if (!files) throw HttpError.malformedMultipart(); // a file before `map`
      const upload = files.get(name);
      return upload && !upload.begun ? upload : undefined;
    },
    ready: complete,
    end() {
      const body = complete();
      if (!body) throw HttpError.malformedMultipart();
      return body;
    },
  });
}
