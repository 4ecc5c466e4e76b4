import { validate } from 'class-validator';
import type { Prisma } from '../db/database';
import { Role } from '../generated/prisma/enums';
import { ValidationError } from '../domain/errors';
import { RegisterInput } from '../schema/auth.type';
import { USER_SELECT, toUserView, type UserView } from './auth.service';
import { hashPassword } from '../domain/password';

export interface AdminAccountInput {
  email: string;
  name: string;
  /** Used only to create the account (an existing one keeps its own): a value, or asked for only then. */
  password: string | (() => Promise<string>);
}

/** What ensureAdminAccount did: `unchanged` when the account already was an admin (a re-run). */
export type AdminAccountOutcome = 'created' | 'promoted' | 'unchanged';

/**
 * The operator's first admin (`npm run admin:create`): creates the account with the admin role, or
 * promotes the existing account with that email; running it again changes nothing. The input
 * follows registration's rules (RegisterInput: email, name, password strength). An existing
 * account keeps its name and password: the password is used (and, given as a function, asked for)
 * only to create one. Exported for the command, so an audit event can be recorded next to it.
 */
export async function ensureAdminAccount(prisma: Prisma, input: AdminAccountInput): Promise<{ user: UserView; outcome: AdminAccountOutcome }> {
  await check(input, typeof input.password === 'string' ? input.password : undefined);
  const email = input.email.trim().toLowerCase();
  const existing = await prisma.user.findFirst({ where: { email, deletedAt: null }, select: USER_SELECT });
  if (existing?.role === Role.ADMIN) return { user: toUserView(existing), outcome: 'unchanged' };
  if (existing) {
    const user = await prisma.user.update({ where: { id: existing.id }, data: { role: Role.ADMIN }, select: USER_SELECT });
    return { user: toUserView(user), outcome: 'promoted' };
  }
  const password = typeof input.password === 'string' ? input.password : await input.password();
  await check(input, password);
  const user = await prisma.user.create({
    data: { name: input.name.trim(), email, passwordHash: await hashPassword(password), role: Role.ADMIN, settings: { create: {} } },
    select: USER_SELECT,
  });
  return { user: toUserView(user), outcome: 'created' };
}

/** Registration's rules (RegisterInput); without a password (not asked for yet), email and name only. */
async function check(input: AdminAccountInput, password: string | undefined): Promise<void> {
  const candidate = Object.assign(new RegisterInput(), {
    email: input.email,
    name: input.name,
    password: password ?? '',
    passwordConfirmation: password ?? '',
  });
  const problems = (await validate(candidate, { forbidUnknownValues: false })).filter(
    (p) => password !== undefined || !['password', 'passwordConfirmation'].includes(p.property),
  );
  // The same field → messages mapping as a GraphQL argument error gets.
  if (problems.length) throw ValidationError.fromClassValidator(problems);
}
