import type { AuthUser } from '../domain/auth-user';
import { ValidationError } from '../domain/errors';
import { ownerScope } from './access';

const DAY_MS = 86_400_000;

/**
 * A list without pages (a plain array in the schema) answers at most this many rows, newest first
 * or in catalogue order: the cost model prices it at this size (docs/api.md "Limits"), and a longer
 * list would answer more than it was priced at. Narrow it with its filters.
 */
export const UNPAGED_LIST_MAX = 100;

/** The filter of the money-request lists (investment and withdrawal requests), for their status enum. */
export interface RequestFilterInput<S> {
  status?: S | null;
  unitId?: number | null;
  investorId?: number | null;
}

/**
 * The `where` of an investor-scoped list: staff may narrow it to one investor, investors always get
 * their own rows (ownerScope wins), then each listed filter field that is set, as an equality.
 */
export function listWhere<F extends { investorId?: number | null }, K extends keyof F>(
  user: AuthUser,
  filter: F | null | undefined,
  equalities: readonly K[],
): { investorId?: number } & { [P in K]?: NonNullable<F[P]> } {
  const f = filter ?? ({} as F);
  const where: Record<string, unknown> = { ...(f.investorId ? { investorId: f.investorId } : {}), ...ownerScope(user) };
  for (const key of equalities) if (f[key]) where[key as string] = f[key];
  return where as { investorId?: number } & { [P in K]?: NonNullable<F[P]> };
}

/** Inclusive UTC date range (`to` covers its whole day); `from` after `to` is a 422; none → undefined. */
export function dayRange(from?: Date | null, to?: Date | null): { gte?: Date; lt?: Date } | undefined {
  if (from && to && from > to) throw ValidationError.field('to', 'The to field must be a date after or equal to from.');
  if (!from && !to) return undefined;
  return { ...(from ? { gte: from } : {}), ...(to ? { lt: new Date(to.getTime() + DAY_MS) } : {}) };
}
