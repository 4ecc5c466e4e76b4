import busboy from 'busboy';
import type { Request } from 'express';
import { ValidationError } from '../errors';

/**
 * multipart/form-data → a plain body: text fields as strings, the one expected file as
 * `{ file_name, content_base64 }` so it reaches GraphQL like any other input. Files over `maxBytes`
 * are refused while streaming (422, Laravel's wording), empty and unexpected file parts ignored.
 */
export function readMultipart(req: Request, fileField: string, maxBytes: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const body: Record<string, unknown> = {};
    let parser: busboy.Busboy;
    try {
      // busboy reports `limit` on reaching fileSize, so allow one byte more: exactly maxBytes is accepted.
      parser = busboy({ headers: req.headers, limits: { files: 5, fileSize: maxBytes + 1, fields: 20 } });
    } catch {
      return resolve(body); // not multipart: the fields are simply missing
    }
    parser.on('field', (name, value) => (body[name] = value));
    parser.on('file', (name, stream, info) => {
      if (name !== fileField) return void stream.resume();
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => reject(ValidationError.field(fileField, `The ${fileField} field must not be greater than ${Math.floor(maxBytes / 1024)} kilobytes.`)));
      stream.on('end', () => {
        const bytes = Buffer.concat(chunks);
        // An empty file part is no file: the field is then reported as required.
        if (bytes.length > 0) body[fileField] = { file_name: info.filename, content_base64: bytes.toString('base64') };
      });
    });
    parser.on('close', () => resolve(body));
    parser.on('error', () => reject(ValidationError.field(fileField, `The ${fileField} could not be read as multipart/form-data.`)));
    req.pipe(parser);
  });
}
