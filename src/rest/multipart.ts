import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { Upload } from 'graphql-upload-minimal';
import { HttpError, type DomainError } from '../errors';
import { capRequest, type UploadLimits } from '../uploads';

/**
 * multipart/form-data → a plain body: text fields as strings, the one expected file as the same
 * `Upload` the GraphQL multipart request spec gives, so the operation streams it from the request
 * to storage. The body is answered as soon as the file's part begins; text fields must come before
 * the file (as browsers and HTTP clients send them in the order they were added) — later ones are
 * ignored. Other file parts are drained and ignored (at most 5 parts of files). Nothing is buffered.
 *
 * A body that cannot be parsed (no boundary, a part cut short, the request aborted) is 400
 * `Malformed multipart body.`, reported to the request or to whoever is reading the file;
 * another content type is 415; a request over `maxRequestBytes` is 413.
 */
export function readMultipart(req: Request, res: Response, fileField: string, limits: UploadLimits): Promise<Record<string, unknown>> {
  const type = req.is('multipart/form-data');
  if (type === null) return Promise.resolve({}); // no body at all: the fields are simply missing (422)
  if (type === false) return Promise.reject(HttpError.unsupportedMediaType());
  capRequest(req, res, limits.maxRequestBytes);
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: 5, fields: 20, parts: 30, fieldSize: 64 * 1024 } });
  } catch {
    return Promise.reject(HttpError.malformedMultipart()); // e.g. no boundary parameter
  }
  return new Promise((resolve, reject) => {
    const body: Record<string, unknown> = {};
    let file: Readable | undefined;
    let answered = false;
    const answer = () => {
      answered = true;
      resolve(body);
    };
    const fail = (err: DomainError) => {
      if (!answered) {
        answered = true;
        reject(err);
      } else if (file && !file.readableEnded) {
        file.destroy(err);
      }
    };
    parser.on('field', (name, value) => {
      if (!answered && !(name in body)) body[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      // Errors reach the reader through the Upload's guarded stream; an unread part must not crash the process.
      stream.on('error', () => undefined);
      if (name !== fileField || answered) return void stream.resume();
      file = stream;
      const upload = new Upload() as Upload & { resolve(file: { filename: string; createReadStream(): Readable }): void };
      upload.resolve({ filename: info.filename ?? '', createReadStream: () => stream });
      body[fileField] = upload;
      answer();
    });
    parser.on('close', () => !answered && answer());
    parser.on('error', () => fail(HttpError.malformedMultipart()));
    req.on('close', () => !req.complete && fail(HttpError.malformedMultipart()));
    req.pipe(parser);
  });
}
