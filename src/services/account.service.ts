import type { Logger } from 'pino';
import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import { ConflictError, ValidationError, type FieldErrors } from '../domain/errors';
import type { Prisma as PrismaNs } from '../generated/prisma/client';
import { InvestmentRequestStatus, Role, WithdrawalRequestStatus } from '../generated/prisma/enums';
import { USER_SELECT, newOpaqueToken, sha256, toUserView, type AuthService, type UserView } from './auth.service';
import { accountDeletedMail, passwordChangedMail, passwordResetMail } from './mail-templates';
import type { MailMessage, Mailer } from './mailer';
import { confirmationErrors, hashPassword, verifyPassword } from '../domain/password';
import type { RateLimitService } from './rate-limit.service';
import { audit } from './audit.service';

export interface ResetPasswordData {
  email: string;
  token: string;
  password: string;
  passwordConfirmation: string;
}

export interface ChangePasswordData {
  currentPassword: string;
  password: string;
  passwordConfirmation: string;
}

export interface UpdateProfileData {
  name?: string | null;
  phone?: string | null;
}

const RESET_TOKEN_TTL_MINUTES = 60;
const INVALID_TOKEN = 'This password reset token is invalid.';
const WRONG_PASSWORD = 'The password is incorrect.';
/** Not an Argon2 string, so no password can ever verify against it. */
const UNUSABLE_PASSWORD_HASH = '!deleted';

type ResetsClient = Pick<PrismaNs.TransactionClient, 'passwordReset'>;

/** Kills every reset link of the user that could still be used (a newer link, or the password changed). */
function expireOpenResets(db: ResetsClient, userId: number, now: Date) {
  return db.passwordReset.updateMany({ where: { userId, usedAt: null, expiresAt: { gt: now } }, data: { expiresAt: now } });
}

/** The account's own lifecycle: password reset and change, profile, deletion. */
export class AccountService {
  constructor(
    private readonly prisma: Prisma,
    private readonly auth: AuthService,
    private readonly limiter: RateLimitService,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
  ) {}

  /**
   * Answers alike whether or not the email is registered. The token is sent, never stored: the
   * table keeps its SHA-256, and only the newest link of a user works.
   */
  async forgotPassword(email: string, ip: string): Promise<boolean> {
    const normalized = email.trim().toLowerCase();
    await this.limiter.consume(`forgot:${ip}:${normalized}`);
    const user = await this.prisma.user.findFirst({ where: { email: normalized, deletedAt: null }, select: { id: true, name: true, email: true } });
    if (!user) return true;
    const token = newOpaqueToken();
    const now = new Date();
    await this.prisma.$transaction(async (tx) => {
      await expireOpenResets(tx, user.id, now);
      await tx.passwordReset.create({
        data: { userId: user.id, tokenHash: sha256(token), expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MINUTES * 60_000) },
      });
      await audit.record(tx, { action: 'user.password_reset_requested', target: { type: 'user', id: user.id } });
    });
    // Neither a slow nor a failing transport may tell the caller that the address exists.
    this.sendInBackground(passwordResetMail(user, token, RESET_TOKEN_TTL_MINUTES), 'password reset');
    return true;
  }

  /** Sets a new password with a reset token and signs the user out everywhere. */
  async resetPassword(data: ResetPasswordData, ip: string): Promise<boolean> {
    await this.limiter.consume(`reset:${ip}`);
    const email = data.email.trim().toLowerCase();
    const now = new Date();
    const record = await this.prisma.passwordReset.findUnique({
      where: { tokenHash: sha256(data.token) },
      select: { id: true, userId: true, usedAt: true, expiresAt: true, user: { select: { name: true, email: true, deletedAt: true } } },
    });
    const fields: FieldErrors = { ...confirmationErrors(data.password, data.passwordConfirmation) };
    if (!record || record.usedAt || record.expiresAt <= now || record.user.deletedAt || record.user.email !== email) fields.token = [INVALID_TOKEN];
    if (!record || Object.keys(fields).length) throw new ValidationError(fields);
    const { id, userId, user } = record;
    const passwordHash = await hashPassword(data.password);
    await this.prisma.$transaction(async (tx) => {
      // Conditional update: of two concurrent uses of one token, exactly one wins.
      const { count } = await tx.passwordReset.updateMany({ where: { id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
      if (count === 0) throw ValidationError.field('token', INVALID_TOKEN);
      await expireOpenResets(tx, userId, now);
      await tx.user.update({ where: { id: userId }, data: { passwordHash } });
      await this.auth.revokeAllSessions(userId, undefined, tx);
      await audit.record(tx, { action: 'user.password_reset_completed', target: { type: 'user', id: userId } });
    });
    this.sendInBackground(passwordChangedMail(user), 'password changed notice');
    return true;
  }

  /** Needs the current password; the other sessions end, this one stays. */
  async changePassword(user: AuthUser, data: ChangePasswordData): Promise<boolean> {
    await this.assertPassword(user, data.currentPassword, 'currentPassword', confirmationErrors(data.password, data.passwordConfirmation));
    if (data.password === data.currentPassword) throw ValidationError.field('password', 'The password field and current password must be different.');
    const passwordHash = await hashPassword(data.password);
    await this.prisma.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
      await expireOpenResets(tx, user.id, new Date());
      await this.auth.revokeAllSessions(user.id, user.sessionId, tx);
      await audit.record(tx, { action: 'user.password_changed', target: { type: 'user', id: user.id } });
    });
    return true;
  }

  /** Changes only the fields given; a blank phone clears it. */
  async updateProfile(user: AuthUser, data: UpdateProfileData): Promise<UserView> {
    const row = await this.prisma.user.update({
      where: { id: user.id },
      data: {
        ...(typeof data.name === 'string' ? { name: data.name.trim() } : {}),
        ...(data.phone !== undefined ? { phone: data.phone?.trim() || null } : {}),
      },
      select: USER_SELECT,
    });
    return toUserView(row);
  }

  /**
   * Closes the account: refused while the investor still has money on the platform (units held,
   * pending investment or withdrawal requests) and for the last administrator. Financial records
   * stay (they are kept by law); the personal data on the user and investor rows is erased, and
   * every session and device token goes, all in one transaction.
   */
  async deleteAccount(user: AuthUser, password: string): Promise<boolean> {
    await this.assertPassword(user, password, 'password');
    const now = new Date();
    // Read before the erasure: the notice goes to the address the account had.
    const recipient = await this.prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { name: true, email: true } });
    await this.prisma.$transaction(async (tx) => {
      if (user.investorId !== null) await this.assertNothingHeld(tx, user.investorId);
      if (user.role === Role.ADMIN) {
        // Locks the active admins: of two admins deleting themselves at once, the second sees the first gone.
        const admins = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM users WHERE role = 'ADMIN' AND deleted_at IS NULL FOR UPDATE`;
        if (!admins.some((a) => a.id !== user.id)) throw new ConflictError('The last administrator account cannot be deleted.');
      }
      await tx.user.update({
        where: { id: user.id },
        data: { name: 'Deleted user', email: `deleted-${user.id}@invalid.local`, phone: null, passwordHash: UNUSABLE_PASSWORD_HASH, deletedAt: now },
      });
      if (user.investorId !== null) await tx.investor.update({ where: { id: user.investorId }, data: { country: null, city: null, dateOfBirth: null } });
      await expireOpenResets(tx, user.id, now);
      await this.auth.revokeAllSessions(user.id, undefined, tx);
      await audit.record(tx, {
        action: 'user.deleted',
        target: { type: 'user', id: user.id },
        changes: { before: { deletedAt: null }, after: { deletedAt: now } },
      });
    });
    this.sendInBackground(accountDeletedMail(recipient), 'account deletion notice');
    return true;
  }

  /**
   * Mail is sent after the change is committed, without holding up the answer (an SMTP round trip
   * would make a registered address answer visibly slower), and never undoes or fails the change: a
   * transport error is logged, without the message, which may hold a token.
   */
  private sendInBackground(message: MailMessage, what: string): void {
    this.mailer.send(message).catch((err: unknown) => this.logger.error({ err }, `${what} mail could not be sent`));
  }

  /**
   * Locks the investor row first: an insert that references it (a new request or holding) takes a
   * key-share lock on it, so one in flight is waited for and counted, and a later one waits for the
   * deletion to commit.
   */
  private async assertNothingHeld(tx: PrismaNs.TransactionClient, investorId: number): Promise<void> {
    await tx.$queryRaw`SELECT id FROM investors WHERE id = ${investorId} FOR UPDATE`;
    const holdings = await tx.holding.count({ where: { investorId, ownershipPercentage: { gt: 0 } } });
    const investments = await tx.investmentRequest.count({ where: { investorId, status: InvestmentRequestStatus.PENDING } });
    const withdrawals = await tx.withdrawalRequest.count({ where: { investorId, status: WithdrawalRequestStatus.PENDING } });
    if (holdings + investments + withdrawals > 0) {
      throw new ConflictError('The account cannot be deleted while it holds units or has pending investment or withdrawal requests.');
    }
  }

  /**
   * Password checks are rate limited per user (a stolen access token must not become a guessing
   * oracle); a wrong password is reported on `field`, together with `other` form errors.
   */
  private async assertPassword(user: AuthUser, password: string, field: string, other: FieldErrors = {}): Promise<void> {
    await this.limiter.consume(`password-check:${user.id}`);
    const row = await this.prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
    const fields: FieldErrors = { ...((await verifyPassword(row.passwordHash, password)) ? {} : { [field]: [WRONG_PASSWORD] }), ...other };
    if (Object.keys(fields).length) throw new ValidationError(fields);
  }
}
