import type { AuthUser } from '../domain/auth-user';
import { ForbiddenError } from '../domain/errors';
import { Prisma as PrismaNs } from '../generated/prisma/client';
import { Role } from '../generated/prisma/enums';

/**
 * Object-level authorization: investors see rows they own, staff (admin, analyst) see all.
 * Every investor-scoped query spreads this into its `where`, so another investor's id is simply
 * not found (404), never forbidden.
 */
export function ownerScope(user: AuthUser): { investorId?: number } {
  return user.role === Role.INVESTOR ? { investorId: user.investorId ?? -1 } : {};
}

/** ownerScope as a test of one record's owner (for records loaded for several users at once: live updates). */
export function mayRead(user: AuthUser, investorId: number): boolean {
  const scope = ownerScope(user);
  return scope.investorId === undefined || scope.investorId === investorId;
}

/** Operations an investor performs on their own account (staff have no portfolio). */
export function requireInvestor(user: AuthUser): number {
  if (user.role !== Role.INVESTOR || user.investorId === null) throw new ForbiddenError();
  return user.investorId;
}

export const isStaff = (user: AuthUser | null) => user !== null && user.role !== Role.INVESTOR;

/** Prisma's unique-constraint violation (a concurrent insert got there between check and write). */
export const isUniqueViolation = (err: unknown) => err instanceof PrismaNs.PrismaClientKnownRequestError && err.code === 'P2002';
