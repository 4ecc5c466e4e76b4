import { PassThrough, type Readable } from 'node:stream';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { processRequest } from 'graphql-upload-minimal';
import { buildContext, requestMeta } from './context';
import { DomainError, HttpError, UnauthenticatedError, graphqlErrorAnswer } from './errors';
import type { Services } from './services';
import type { FileUpload } from './services/storage/upload';

/**
 * The transport half of uploads, shared by both faces: request-size caps, the GraphQL multipart
 * request middleware, and the error mapping that turns a broken request into a 4xx for whoever
 * is reading the file (the services see only `FileUpload` and DomainErrors).
 */
export interface UploadLimits {
  /** Largest file (the services refuse more with 422). */
  maxFileBytes: number;
  /** Largest whole multipart request: the file plus room for the other fields (413 above). */
  maxRequestBytes: number;
}

/** Anything that breaks a file stream, as the client's error: 413 for sizes, 400 for a malformed or cut-short body. */
export function uploadError(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  return (err as { status?: unknown }).status === 413 ? HttpError.payloadTooLarge() : HttpError.malformedMultipart();
}

/** The file as the services get it: its stream fails with a DomainError, never a parser's raw error. */
export function guardedUpload(file: { filename: string; createReadStream(): Readable }): FileUpload {
  return {
    filename: file.filename,
    createReadStream() {
      let source: Readable;
      try {
        source = file.createReadStream();
      } catch (err) {
        throw uploadError(err);
      }
      // The request may have broken before the operation got to the file: its 'error' has been and gone.
      if (source.destroyed) throw uploadError(source.errored);
      const out = new PassThrough();
      source.on('error', (err) => out.destroy(uploadError(err)));
      return source.pipe(out);
    },
  };
}

/**
 * Refuses a request whose declared length is over the cap before reading it (413), and cuts off one
 * that grows past it while streaming (chunked): its file stream then fails and nothing is stored.
 * Once the answer is sent, whatever the operation did not read is drained unparsed, as Node does
 * for any unread body, so a refused upload never stalls the connection.
 */
export function capRequest(req: Request, res: Response, maxBytes: number): void {
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

/**
 * /graphql multipart requests (GraphQL multipart request spec, graphql-upload-minimal): the bearer
 * token is checked before a byte of the body is read, so a guest's upload is never parsed, let alone
 * stored (401, UNAUTHENTICATED). The context built here is the one the operation runs with.
 * Apollo's CSRF prevention still applies: multipart requests need an `apollo-require-preflight`
 * (or `x-apollo-operation-name`) header.
 */
export function graphqlUploads(services: Services, limits: UploadLimits): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('multipart/form-data')) return next();
    try {
      const context = await buildContext(services, req.headers.authorization, requestMeta(req));
      if (!context.user) throw new UnauthenticatedError(context.authFailure);
      capRequest(req, res, limits.maxRequestBytes);
      // The size limit is the services' (422, as on REST); one file per request.
      req.body = await processRequest(req, res, { maxFiles: 1, maxFieldSize: limits.maxRequestBytes - limits.maxFileBytes });
      res.locals.context = context;
      next();
    } catch (err) {
      // Answered here, in GraphQL's shape: the request never reaches Apollo.
      const answer = graphqlErrorAnswer(uploadError(err));
      res.status(answer.status).json(answer.body);
    }
  };
}
