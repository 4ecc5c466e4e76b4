import type { NextFunction, Request, Response } from 'express';
import pino from 'pino';
import { NotFoundError } from '../../src/domain/errors';
import { HttpError } from '../../src/http/errors';
import { routeNotFound, transportError, transportErrorHandler } from '../../src/rest/transport-errors';

const logger = pino({ level: 'silent' });
/** What express hands its error handler: anything thrown, body-parser's errors with their `type` and `status`. */
const map = (err: unknown) => transportError(err as { type?: string; status?: number });

describe('transportError', () => {
  it("maps body-parser's failures and undecodable paths to the contract's errors", () => {
    expect(map({ type: 'entity.too.large', status: 413 })).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(map({ type: 'charset.unsupported', status: 415 })).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(map({ type: 'encoding.unsupported', status: 415 })).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(map({ type: 'entity.parse.failed', status: 400 })).toMatchObject({ code: 'BAD_REQUEST', message: 'Malformed JSON body.' });
    expect(map({ type: 'request.size.invalid', status: 400 })).toMatchObject({ code: 'BAD_REQUEST', message: 'Malformed JSON body.' });
    expect(map(new URIError('URI malformed'))).toBeInstanceOf(NotFoundError);
  });

  it('passes our own errors and server-side failures through', () => {
    const ours = HttpError.jsonTooDeep(64);
    expect(map(ours)).toBe(ours);
    const failure = Object.assign(new Error('stream failed'), { status: 500 });
    expect(map(failure)).toBe(failure);
  });
});

/** What the handlers write: express's status() and json() on /graphql, Node's own writes elsewhere (rest/respond.ts). */
class FakeResponse {
  statusCode = 0;
  headers: Record<string, unknown> = {};
  body: unknown;

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  json(body: unknown): void {
    this.body = body;
  }

  setHeader(name: string, value: unknown): void {
    this.headers[name.toLowerCase()] = value;
  }

  end(text: string): void {
    this.body = JSON.parse(text);
  }
}

function answer(path: string, err: unknown): FakeResponse {
  const res = new FakeResponse();
  transportErrorHandler(logger)(err as { type?: string }, { path } as Request, res as unknown as Response, jest.fn() as NextFunction);
  return res;
}

describe('transportErrorHandler', () => {
  const tooLarge = { type: 'entity.too.large', status: 413 };

  it("answers on /graphql in GraphQL's shape", () => {
    const res = answer('/graphql', tooLarge);
    expect(res.statusCode).toBe(413);
    expect(res.body).toEqual({ errors: [{ message: 'Payload too large.', extensions: { code: 'PAYLOAD_TOO_LARGE' } }] });
  });

  it("answers elsewhere in REST's envelope, and anything unexpected as a 500 there too", () => {
    const res = answer('/api/v1/auth/login', tooLarge);
    expect(res.statusCode).toBe(413);
    expect(res.body).toEqual({ success: false, message: 'Payload too large.' });
    const failure = answer('/graphql', new Error('stream failed'));
    expect(failure.statusCode).toBe(500);
    expect(failure.body).toEqual({ success: false, message: 'Server Error.' });
  });
});

describe('routeNotFound', () => {
  it('answers 404 in the envelope', () => {
    const res = new FakeResponse();
    routeNotFound(logger)({} as Request, res as unknown as Response, jest.fn());
    expect(res.statusCode).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Route not found.' });
  });
});
