import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { CodedError, NotFoundError } from '../domain/errors';
import { HttpError, graphqlErrorAnswer } from '../http/errors';
import { sendError } from './respond';

/**
 * Errors of express's own request handling → the contract's answers: body-parser's (malformed,
 * too large, a charset or content encoding other than UTF-8 JSON, a body that is not what its
 * headers say) and a path parameter whose %-escapes do not decode (it can name no resource).
 */
export function transportError(err: { type?: string; status?: number }): unknown {
  if (err instanceof CodedError) return err;
  if (err instanceof URIError) return new NotFoundError();
  switch (err.type) {
    case 'entity.too.large':
      return HttpError.payloadTooLarge();
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return HttpError.unsupportedMediaType();
  }
  if (err.type === 'entity.parse.failed' || (typeof err.status === 'number' && err.status >= 400 && err.status < 500)) return HttpError.malformedJson();
  return err;
}

/** The app's last handler: a path no face serves. */
export function routeNotFound(logger: Logger): RequestHandler {
  return (_req, res) => sendError(res, HttpError.routeNotFound(), logger);
}

/** The app's error handler: body parser failures (and anything else that escaped) in the contract's format, GraphQL's on /graphql. */
export function transportErrorHandler(logger: Logger) {
  return (err: { type?: string; status?: number }, req: Request, res: Response, _next: NextFunction) => {
    const mapped = transportError(err);
    // req.baseUrl is no longer '/graphql' here (the app-level handler), req.path still is.
    if (req.path === '/graphql' && mapped instanceof CodedError) {
      const answer = graphqlErrorAnswer(mapped);
      return void res.status(answer.status).json(answer.body);
    }
    sendError(res, mapped, logger);
  };
}
