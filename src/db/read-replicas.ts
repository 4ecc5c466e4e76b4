import { AsyncLocalStorage } from 'node:async_hooks';
import type { Prisma } from './database';

const pinned = new AsyncLocalStorage<true>();

/**
 * Puts every later read of the current request on the primary. Each GraphQL mutation's root field
 * (and so every REST write) calls it, so what it reads after writing — its own answer, the payload's
 * nested fields — is never a replica that has not caught up yet. enterWith, not run(): graphql-js
 * resolves the nested fields in continuations attached after the root resolver has returned,
 * outside any scope it could open; the request's own async context carries the pin to them.
 */
export function pinToPrimary(): void {
  pinned.enterWith(true);
}

/**
 * Where list, detail and aggregate reads go (DATABASE_READ_URLS): the replicas in turn, the
 * primary after pinToPrimary() or when there are none. Routing is opt-in: a service asks for
 * `client` in the read methods the API serves; everything else — sessions and sign-in, writes,
 * transactions, the checks a write makes before writing — keeps using the primary client.
 * One method call takes one client (page and total from the same replica).
 */
export class ReadReplicas {
  private turn = 0;

  constructor(
    readonly primary: Prisma,
    private readonly replicas: readonly Prisma[] = [],
  ) {}

  get client(): Prisma {
    if (this.replicas.length === 0 || pinned.getStore()) return this.primary;
    this.turn = (this.turn + 1) % this.replicas.length;
    return this.replicas[this.turn];
  }
}
