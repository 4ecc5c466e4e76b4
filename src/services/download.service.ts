import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AuthUser } from '../context';
import { NotFoundError } from '../errors';

/** A file a service streams out (statements, KYC documents): never built whole in memory. */
export interface DownloadFile {
  fileName: string;
  contentType: string;
  stream: Readable;
}

export interface DownloadLink {
  fileName: string;
  contentType: string;
  url: string;
  expiresAt: Date;
}

type Producer = (user: AuthUser, params: Record<string, unknown>) => Promise<DownloadFile>;

interface Claims {
  k: string;
  p: Record<string, unknown>;
  u: AuthUser;
  e: number;
}

/**
 * Downloads as short-lived signed links. A GraphQL field checks the request (ownership, input) and
 * answers a link; GET /api/v1/downloads/{token} (and the REST routes that serve files directly)
 * then stream the file from the producer the owning service registered, as the user who asked.
 */
export class DownloadService {
  private readonly producers = new Map<string, Producer>();

  constructor(
    private readonly secret: string,
    private readonly ttlSeconds = 300,
  ) {}

  register(kind: string, producer: Producer): void {
    this.producers.set(kind, producer);
  }

  link(user: AuthUser, kind: string, params: Record<string, unknown>, fileName: string, contentType: string, now = new Date()): DownloadLink {
    const expiresAt = new Date(now.getTime() + this.ttlSeconds * 1000);
    const claims: Claims = { k: kind, p: params, u: user, e: Math.floor(expiresAt.getTime() / 1000) };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { fileName, contentType, url: `/api/v1/downloads/${payload}.${this.sign(payload)}`, expiresAt };
  }

  /** A forged, expired or unknown link is simply not found. */
  async open(token: string, now = new Date()): Promise<DownloadFile> {
    const [payload, signature] = token.split('.');
    if (!payload || !signature) throw new NotFoundError();
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new NotFoundError();
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Claims;
    const producer = this.producers.get(claims.k);
    if (!producer || claims.e * 1000 < now.getTime()) throw new NotFoundError();
    return producer(claims.u, claims.p);
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(`download:${payload}`).digest('base64url');
  }
}
