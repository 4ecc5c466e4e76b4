import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { buildContext, requestMeta } from '../http/context';
import { UnauthenticatedError } from '../domain/errors';
import { graphqlErrorAnswer } from '../http/errors';
import { readGraphqlMultipart, uploadError, type UploadLimits } from '../http/multipart';
import type { Services } from '../services';

/**
 * /graphql multipart requests (GraphQL multipart request spec, read by the one multipart parser of
 * both faces): the bearer token is checked before a byte of the body is read, so a guest's upload is
 * never parsed, let alone stored (401, UNAUTHENTICATED). The context built here is the one the
 * operation runs with; it carries the request's files for the idempotency fingerprint.
 * Apollo's CSRF prevention still applies: multipart requests need an `apollo-require-preflight`
 * (or `x-apollo-operation-name`) header.
 */
export function graphqlUploads(services: Services, limits: UploadLimits & { maxOperationsBytes: number }): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('multipart/form-data')) return next();
    try {
      const context = await buildContext(services, req.headers.authorization, requestMeta(req));
      if (!context.user) throw new UnauthenticatedError(context.authFailure);
      // The size limit is the services' (422, as on REST); one file per request.
      const { operations, uploads } = await readGraphqlMultipart(req, res, { ...limits, maxFiles: 1 });
      req.body = operations;
      res.locals.context = { ...context, uploads };
      next();
    } catch (err) {
      // Answered here, in GraphQL's shape: the request never reaches Apollo.
      const answer = graphqlErrorAnswer(uploadError(err));
      res.status(answer.status).json(answer.body);
    }
  };
}
