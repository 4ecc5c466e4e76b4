import { hkdfSync } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AuthUser } from '../domain/auth-user';
import { NotFoundError } from '../domain/errors';
import { keysFor, signingKeys, type SigningSecrets } from './signing-keys';

/** jose, loaded with the first download link: most requests never make one (memory, docs/benchmarks.md). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jose = (): typeof import('jose') => require('jose');

/** A file a service streams out (statements, KYC documents): never built whole in memory. */
export interface DownloadFile {
  fileName: string;
  contentType: string;
  stream: Readable;
}

/**
 * A file someone may fetch: what it is, for whom, until when. GraphQL turns it into a link (`url`);
 * the REST routes that serve files open it directly, in the same request, without a link.
 */
export class DownloadLink {
  constructor(
    readonly user: AuthUser,
    readonly kind: string,
    readonly params: Record<string, unknown>,
    readonly fileName: string,
    readonly contentType: string,
    readonly expiresAt: Date,
  ) {}
}

type Producer = (user: AuthUser, params: Record<string, unknown>) => Promise<DownloadFile>;

/** The session behind a link, as the bearer-token check sees it (null: revoked, expired, user deleted). */
export type SessionLookup = (sessionId: string) => Promise<AuthUser | null>;

/** Token format version: bumping it (with the key label) retires every link in circulation. */
const KEY_LABEL = 'investment-platform/download-links/v2';

/**
 * Downloads as short-lived links. A GraphQL field checks the request (ownership, input) and answers
 * a link; GET /api/v1/downloads/{token} then streams the file from the producer the owning service
 * registered, as the user who asked.
 *
 * The token is an encrypted JWT (JWE, `dir` + A256GCM, jose) under a key derived by HKDF from
 * JWT_SECRET with its own label, so it is as secret as the access tokens (required in production)
 * and no access token key is reused. Its header names the secret (`kid`): while JWT_SECRET_PREVIOUS
 * is set, links made under it still open. It carries the file's kind and parameters and the *session*,
 * never a role: opening it looks the session up again, so a link dies with its session (logout,
 * password reset, account deletion) and nobody can mint one for somebody else's session.
 */
export class DownloadService {
  private readonly producers = new Map<string, Producer>();
  /** Current first. */
  private readonly keys: Array<{ kid: string; key: Uint8Array }>;

  constructor(
    secrets: SigningSecrets,
    private readonly sessions: SessionLookup,
    private readonly ttlSeconds = 300,
  ) {
    this.keys = signingKeys(secrets).map(({ kid, secret }) => ({ kid, key: new Uint8Array(hkdfSync('sha256', secret, Buffer.alloc(0), KEY_LABEL, 32)) }));
  }

  register(kind: string, producer: Producer): void {
    this.producers.set(kind, producer);
  }

  link(user: AuthUser, kind: string, params: Record<string, unknown>, fileName: string, contentType: string, now = new Date()): DownloadLink {
    return new DownloadLink(user, kind, params, fileName, contentType, new Date(now.getTime() + this.ttlSeconds * 1000));
  }

  /** The path of the link (`/api/v1/downloads/{token}`). */
  async url(link: DownloadLink): Promise<string> {
    const [current] = this.keys;
    const token = await new (jose().EncryptJWT)({ k: link.kind, p: link.params, sid: link.user.sessionId })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: current.kid })
      .setExpirationTime(Math.floor(link.expiresAt.getTime() / 1000))
      .encrypt(current.key);
    return `/api/v1/downloads/${token}`;
  }

  /** Streams a link's file in the request that made it (REST). */
  open(link: DownloadLink): Promise<DownloadFile> {
    const producer = this.producers.get(link.kind);
    if (!producer) throw new NotFoundError();
    return producer(link.user, link.params);
  }

  /** A forged, tampered, expired or unknown link, or one whose session has ended, is simply not found. */
  async openToken(token: string, now = new Date()): Promise<DownloadFile> {
    const { k, p, sid } = await this.decrypt(token, now);
    if (typeof k !== 'string' || typeof sid !== 'string' || !p || typeof p !== 'object') throw new NotFoundError();
    const producer = this.producers.get(k);
    const user = producer && (await this.sessions(sid));
    if (!producer || !user) throw new NotFoundError();
    return producer(user, p as Record<string, unknown>);
  }

  /** The claims of a link one of our keys made (the one its header's `kid` names), else 404. */
  private async decrypt(token: string, now: Date): Promise<{ k?: unknown; p?: unknown; sid?: unknown }> {
    let kid: unknown;
    try {
      ({ kid } = jose().decodeProtectedHeader(token));
    } catch {
      throw new NotFoundError();
    }
    for (const { key } of keysFor(this.keys, kid)) {
      try {
        const options = { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'], requiredClaims: ['exp'], currentDate: now };
        return (await jose().jwtDecrypt<{ k?: unknown; p?: unknown; sid?: unknown }>(token, key, options)).payload;
      } catch {
        // Not this key's (or expired, tampered): the next key, if any, then 404.
      }
    }
    throw new NotFoundError();
  }
}
