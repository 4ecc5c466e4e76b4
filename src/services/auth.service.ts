import { createHash, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Config } from '../platform/config';
import type { AuthUser } from '../domain/auth-user';
import type { Database, Prisma, PreparedRead } from '../db/database';
import type { Prisma as PrismaNs } from '../generated/prisma/client';
import { Role } from '../generated/prisma/enums';
import { NotFoundError, UnauthenticatedError, ValidationError, type UnauthenticatedReason } from '../domain/errors';
import { isUniqueViolation } from './access';
import { confirmationErrors, hashPassword, verifyPassword } from '../domain/password';
import { keysFor, signingKeys } from './signing-keys';
import { CACHE_BYTES, byteBoundedLru } from '../platform/bounded-cache';
import type { RateLimitService } from './rate-limit.service';
import { audit } from './audit.service';
import { changes } from './change-feed';
import { writeOnce, type OnceOptions } from './idempotency.service';

/** A new account as registration receives it. */
export interface RegisterData {
  name: string;
  email: string;
  password: string;
  passwordConfirmation: string;
  phone?: string | null;
}

export interface AuthResult {
  user: UserView;
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

/** A bearer token's user, or why there is none. */
export type Authentication = { user: AuthUser; failure?: undefined } | { user: null; failure: UnauthenticatedReason };

type SessionsClient = Pick<PrismaNs.TransactionClient, 'session' | 'deviceToken' | '$executeRaw'>;

interface AccessClaims {
  sub: string;
  sid: string;
  role: Role;
}

/** What a verified access token carries that a request uses, and when it expires (seconds since the epoch). */
interface VerifiedToken {
  sub: unknown;
  sid: unknown;
  exp: number;
}

export const USER_SELECT = {
  id: true,
  name: true,
  email: true,
  phone: true,
  role: true,
  createdAt: true,
  updatedAt: true,
  investor: { select: { id: true } },
} satisfies PrismaNs.UserSelect;

type UserRow = PrismaNs.UserGetPayload<{ select: typeof USER_SELECT }>;

/** An account's columns (USER_SELECT) with its investor record's id (null for staff). */
export type UserView = Omit<UserRow, 'investor'> & { investorId: number | null };

export function toUserView(row: UserRow): UserView {
  const { investor, ...rest } = row;
  return { ...rest, investorId: investor?.id ?? null };
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const newOpaqueToken = () => randomBytes(32).toString('base64url');

const SESSION_ID = /^[0-9a-f-]{36}$/i;
/** A verified token's entry beyond its key: the record, its two strings and the LRU's TTL slots. */
const VERIFIED_TOKEN_BYTES = 256;

/** The session read of every authenticated request (Database.read: a prepared statement past Prisma). */
const SESSION_READ: PreparedRead = {
  name: 'session_user',
  text: `SELECT s.revoked_at, s.expires_at, u.id AS user_id, u.role::text AS role, u.deleted_at, i.id AS investor_id
         FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN investors i ON i.user_id = u.id
         WHERE s.id = $1::uuid`,
};
interface SessionRow {
  revoked_at: Date | null;
  expires_at: Date;
  user_id: number;
  role: Role;
  deleted_at: Date | null;
  investor_id: number | null;
}

const EMAIL_TAKEN = 'The email has already been taken.';

/** Precomputed so that a login for an unknown email costs the same as a wrong password. */
let decoyHash: Promise<string> | undefined;

export class AuthService {
  /**
   * Signing keys, current first (JWT_SECRET, then JWT_SECRET_PREVIOUS while rotating); a token's
   * header names its key (`kid`). KeyObjects, not strings: given a string, jsonwebtoken first tries
   * to parse it as a PEM public key (and fails) on every verify, ~0.6 ms per request in the benchmark profile.
   */
  private readonly keys: Array<{ kid: string; key: KeyObject }>;

  /**
   * Access tokens already verified, keyed by the whole token (signature included): checking the
   * HMAC and parsing the token twice cost ~40 µs, about 5 % of a list request's CPU (docs/benchmarks.md).
   * Only tokens one of our keys signed go in, each until it expires, so guests cannot fill it; the
   * session is still read on every request, so revocation stays immediate.
   */
  private readonly verified = byteBoundedLru<VerifiedToken>(CACHE_BYTES.verifiedTokens, () => VERIFIED_TOKEN_BYTES);

  constructor(
    private readonly prisma: Prisma,
    private readonly config: Config,
    private readonly limiter: RateLimitService,
    private readonly read: Database['read'],
  ) {
    this.keys = signingKeys({ current: config.jwtSecret, previous: config.jwtSecretPrevious }).map(({ kid, secret }) => ({
      kid,
      key: createSecretKey(Buffer.from(secret)),
    }));
  }

  /** Bearer token → user, or null when the token is bad, expired, or its session was revoked. */
  async authenticate(token: string): Promise<AuthUser | null> {
    return (await this.identify(token)).user;
  }

  /** Bearer token → user, or why not: expired (a refresh helps), session ended, or not a token of ours. */
  async identify(token: string): Promise<Authentication> {
    const invalid = { user: null, failure: 'TOKEN_INVALID' } as const;
    const claims = this.verify(token);
    if (claims === 'expired') return { user: null, failure: 'TOKEN_EXPIRED' };
    if (!claims) return invalid;
    if (typeof claims.sid !== 'string' || !SESSION_ID.test(claims.sid)) return invalid;
    const user = await this.sessionUser(claims.sid);
    if (!user) return { user: null, failure: 'SESSION_REVOKED' };
    return String(user.id) === claims.sub ? { user } : invalid;
  }

  /**
   * The claims of a token one of our keys signed (the one its `kid` names), 'expired' when that key
   * signed it but it has expired, else undefined. Pinning the algorithm rejects `alg: none` and
   * algorithm-confusion tokens; the signature is checked before the expiry, so a forged token is
   * never reported as merely expired.
   */
  private verify(token: string): Pick<VerifiedToken, 'sub' | 'sid'> | 'expired' | undefined {
    const known = this.verified.get(token);
    // jsonwebtoken's own rule: expired from the second `exp` names.
    if (known) return Math.floor(Date.now() / 1000) >= known.exp ? 'expired' : known;
    const header = jwt.decode(token, { complete: true })?.header;
    if (!header) return undefined;
    for (const { key } of keysFor(this.keys, header.kid)) {
      try {
        const claims = jwt.verify(token, key, { algorithms: ['HS256'] }) as jwt.JwtPayload;
        const verified = { sub: claims.sub, sid: claims.sid as unknown, exp: claims.exp ?? 0 };
        // A token without an expiry (none of ours) is verified every time rather than kept.
        if (typeof claims.exp === 'number') this.verified.set(token, verified, { ttl: claims.exp * 1000 - Date.now() });
        return verified;
      } catch (err) {
        if (err instanceof jwt.TokenExpiredError) return 'expired';
      }
    }
    return undefined;
  }

  /** When an access token stops being accepted (ms since the epoch); null for a token without an expiry. */
  accessTokenExpiry(token: string): number | null {
    const exp = (jwt.decode(token) as { exp?: unknown } | null)?.exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  }

  /** Of these sessions, the ones still live (as sessionUser decides), in one query: live connections re-check theirs. */
  async liveSessions(sessionIds: string[]): Promise<Set<string>> {
    const rows = await this.prisma.session.findMany({
      where: { id: { in: sessionIds.filter((id) => /^[0-9a-f-]{36}$/i.test(id)) }, revokedAt: null, expiresAt: { gt: new Date() }, user: { deletedAt: null } },
      select: { id: true },
    });
    return new Set(rows.map((r) => r.id));
  }

  /** The user of a live session (not revoked, not expired, user not deleted), else null. Download links use it too. */
  async sessionUser(sessionId: string): Promise<AuthUser | null> {
    if (!SESSION_ID.test(sessionId)) return null;
    const [session] = await this.read<SessionRow>(SESSION_READ, [sessionId]);
    if (!session || session.revoked_at || session.expires_at <= new Date() || session.deleted_at) return null;
    return { id: session.user_id, role: session.role, investorId: session.investor_id, sessionId };
  }

  /**
   * A new investor account, signed in. With an Idempotency-Key, a retry after a lost answer finds
   * the account its first attempt created and answers it with a fresh session (the first session's
   * refresh token exists only as a hash, so it cannot be handed out again; that session stays
   * unused until it expires or the user signs out everywhere).
   */
  async register(input: RegisterData, ip: string, deviceName?: string | null): Promise<AuthResult> {
    await this.limiter.consume(`register:${ip}`);
    const email = input.email.trim().toLowerCase();
    const fields: Record<string, string[]> = { ...confirmationErrors(input.password, input.passwordConfirmation) };
    // Hashed before the transaction (it is slow), and only for a request that may pass.
    const passwordHash = Object.keys(fields).length ? null : await hashPassword(input.password);
    return this.prisma
      .$transaction((tx) =>
        writeOnce(tx, this.registered(tx, deviceName), async () => {
          // Checked after the key's lock: a retry after a lost answer finds its own account, not a taken email.
          if (await tx.user.findUnique({ where: { email }, select: { id: true } })) fields.email = [EMAIL_TAKEN];
          if (Object.keys(fields).length || !passwordHash) throw new ValidationError(fields);
          const user = await tx.user.create({
            data: {
              name: input.name.trim(),
              email,
              phone: input.phone ?? null,
              passwordHash,
              role: Role.INVESTOR,
              investor: { create: {} },
              settings: { create: {} },
            },
            select: USER_SELECT,
          });
          return this.openSession(tx, toUserView(user), deviceName);
        }),
      )
      .catch((err: unknown) => {
        // A concurrent registration of the same email won the race since the check above.
        throw isUniqueViolation(err) ? ValidationError.field('email', EMAIL_TAKEN) : err;
      });
  }

  /** A keyed retry whose first answer was lost: the account it created, signed in afresh (writeOnce). */
  private registered(tx: PrismaNs.TransactionClient, deviceName?: string | null): OnceOptions<AuthResult> {
    return {
      kind: 'user',
      ref: (result) => String(result.user.id),
      existing: async (ref) => {
        const user = await tx.user.findFirst({ where: { id: Number(ref), deletedAt: null }, select: USER_SELECT });
        if (!user) throw new NotFoundError();
        return this.openSession(tx, toUserView(user), deviceName);
      },
    };
  }

  async login(email: string, password: string, ip: string, deviceName?: string | null): Promise<AuthResult> {
    const normalized = email.trim().toLowerCase();
    // The account the email names, if any, as the credential check found it (the failed-login event's target).
    const known: { id?: number } = {};
    const user = await this.limiter.guardLogin(normalized, ip, () => this.checkCredentials(normalized, password, (id) => (known.id = id)));
    if (!user) {
      const target = known.id === undefined ? null : { type: 'user', id: known.id };
      await audit.record(this.prisma, { actor: null, action: 'auth.login_failed', target, changes: { after: { email } } });
      throw ValidationError.field('email', 'These credentials do not match our records.');
    }
    return this.startSession(user, deviceName, 'auth.login_succeeded');
  }

  /** The user whose password this is, or null (unknown email and wrong password cost the same). */
  private async checkCredentials(email: string, password: string, found: (id: number) => void): Promise<UserView | null> {
    const user = await this.prisma.user.findUnique({ where: { email }, select: { ...USER_SELECT, passwordHash: true, deletedAt: true } });
    if (user) found(user.id);
    decoyHash ??= hashPassword(newOpaqueToken());
    const ok = await verifyPassword(user?.passwordHash ?? (await decoyHash), password);
    if (!user || user.deletedAt || !ok) return null;
    const { passwordHash: _h, deletedAt: _d, ...row } = user;
    return toUserView(row);
  }

  async me(userId: number): Promise<UserView> {
    const user = await this.prisma.user.findFirst({ where: { id: userId, deletedAt: null }, select: USER_SELECT });
    if (!user) throw new NotFoundError();
    return toUserView(user);
  }

  /**
   * Revokes the user's session: its access tokens fail at once, its refresh token is dead and its
   * live connections close (on every instance, told through the change feed at commit).
   */
  async logout(user: Pick<AuthUser, 'id' | 'sessionId'>): Promise<boolean> {
    const { sessionId } = user;
    await this.prisma.$transaction([
      this.prisma.session.update({ where: { id: sessionId }, data: { revokedAt: new Date() } }),
      this.prisma.deviceToken.deleteMany({ where: { sessionId } }),
      audit.record(this.prisma, { action: 'auth.logged_out', target: { type: 'session', id: sessionId } }),
      changes.publish(this.prisma, { type: 'sessions_revoked', userId: user.id }),
    ]);
    return true;
  }

  /**
   * Rotation: each refresh token works once. Presenting a used one means it leaked (or raced), so
   * the whole session is revoked and both holders must log in again.
   */
  async refresh(refreshToken: string): Promise<AuthResult> {
    const record = await this.prisma.refreshToken.findUnique({
      where: { tokenHash: sha256(refreshToken) },
      select: {
        id: true,
        usedAt: true,
        session: { select: { id: true, revokedAt: true, expiresAt: true, user: { select: { ...USER_SELECT, deletedAt: true } } } },
      },
    });
    if (!record) throw new UnauthenticatedError();
    const { session } = record;
    if (session.revokedAt || session.expiresAt <= new Date() || session.user.deletedAt) throw new UnauthenticatedError();
    const next = newOpaqueToken();
    const rotated = await this.prisma.$transaction(async (tx) => {
      // Conditional update: of two concurrent uses of one token, exactly one wins.
      const { count } = await tx.refreshToken.updateMany({ where: { id: record.id, usedAt: null }, data: { usedAt: new Date() } });
      if (count === 0) return false;
      await tx.refreshToken.create({ data: { sessionId: session.id, tokenHash: sha256(next) } });
      return true;
    });
    if (!rotated) {
      await this.prisma.$transaction([
        this.prisma.session.update({ where: { id: session.id }, data: { revokedAt: new Date() } }),
        audit.record(this.prisma, {
          actor: null,
          action: 'auth.refresh_token_reused',
          target: { type: 'user', id: session.user.id },
          changes: { after: { revokedSession: session.id } },
        }),
        changes.publish(this.prisma, { type: 'sessions_revoked', userId: session.user.id }),
      ]);
      throw new UnauthenticatedError();
    }
    const { deletedAt: _d, ...row } = session.user;
    return this.tokens(toUserView(row), session.id, next);
  }

  /**
   * Revokes every session of a user but `exceptSessionId` (password change, reset, account
   * deletion) and, as logout does, drops the device tokens of the revoked ones and closes their
   * live connections. Pass a transaction client to commit it together with the change that causes it.
   */
  async revokeAllSessions(userId: number, exceptSessionId?: string, db: SessionsClient = this.prisma): Promise<void> {
    await db.session.updateMany({
      where: { userId, revokedAt: null, ...(exceptSessionId ? { id: { not: exceptSessionId } } : {}) },
      data: { revokedAt: new Date() },
    });
    await db.deviceToken.deleteMany({ where: { userId, ...(exceptSessionId ? { OR: [{ sessionId: null }, { sessionId: { not: exceptSessionId } }] } : {}) } });
    await changes.publish(db, { type: 'sessions_revoked', userId });
  }

  /** `event`: the audit action recorded with the new session (login), in its transaction. */
  private async startSession(user: UserView, deviceName?: string | null, event?: string): Promise<AuthResult> {
    const { data, refreshToken } = this.newSession(user, deviceName);
    const [session] = await this.prisma.$transaction([
      this.prisma.session.create({ data, select: { id: true } }),
      ...(event ? [audit.record(this.prisma, { actor: { id: user.id, role: user.role }, action: event, target: { type: 'user', id: user.id } })] : []),
    ]);
    return this.tokens(user, session.id, refreshToken);
  }

  /** A new session of `user` inside the caller's transaction (registration). */
  private async openSession(tx: SessionsClient, user: UserView, deviceName?: string | null): Promise<AuthResult> {
    const { data, refreshToken } = this.newSession(user, deviceName);
    const session = await tx.session.create({ data, select: { id: true } });
    return this.tokens(user, session.id, refreshToken);
  }

  /** A session's row and its refresh token, in the clear only here: the row keeps its hash. */
  private newSession(user: UserView, deviceName?: string | null) {
    const refreshToken = newOpaqueToken();
    const data = {
      userId: user.id,
      deviceName: deviceName ?? null,
      expiresAt: new Date(Date.now() + this.config.refreshTokenTtlDays * 86_400_000),
      refreshTokens: { create: { tokenHash: sha256(refreshToken) } },
    } satisfies PrismaNs.SessionUncheckedCreateInput;
    return { data, refreshToken };
  }

  private tokens(user: UserView, sessionId: string, refreshToken: string): AuthResult {
    const claims: AccessClaims = { sub: String(user.id), sid: sessionId, role: user.role };
    const [current] = this.keys;
    const accessToken = jwt.sign(claims, current.key, { algorithm: 'HS256', expiresIn: this.config.accessTokenTtlSeconds, keyid: current.kid });
    return { user, accessToken, refreshToken, tokenType: 'Bearer', expiresIn: this.config.accessTokenTtlSeconds };
  }
}
