import type { Prisma } from '../db/database';
import { Role } from '../generated/prisma/enums';
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
 * promotes the existing account with that email; running it again changes nothing. The caller
 * checks the input against registration's rules first (the command does, with RegisterInput), as
 * the GraphQL edge does for register. An existing account keeps its name and password: the
 * password is used (and, given as a function, asked for) only to create one.
 */
export async function ensureAdminAccount(prisma: Prisma, input: AdminAccountInput): Promise<{ user: UserView; outcome: AdminAccountOutcome }> {
  const email = input.email.trim().toLowerCase();
  const existing = await prisma.user.findFirst({ where: { email, deletedAt: null }, select: USER_SELECT });
  if (existing?.role === Role.ADMIN) return { user: toUserView(existing), outcome: 'unchanged' };
  if (existing) {
    const user = await prisma.user.update({ where: { id: existing.id }, data: { role: Role.ADMIN }, select: USER_SELECT });
    return { user: toUserView(user), outcome: 'promoted' };
  }
  const password = typeof input.password === 'string' ? input.password : await input.password();
  const user = await prisma.user.create({
    data: { name: input.name.trim(), email, passwordHash: await hashPassword(password), role: Role.ADMIN, settings: { create: {} } },
    select: USER_SELECT,
  });
  return { user: toUserView(user), outcome: 'created' };
}
