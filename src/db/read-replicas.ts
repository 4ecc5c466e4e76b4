import { AsyncLocalStorage } from 'node:async_hooks';
import type { Prisma } from './database';

const pinned = new AsyncLocalStorage<true>();

/**
 * Runs `fn` with every read on the primary: a GraphQL mutation (and so every REST write) runs in
 * here, so what it reads after writing — its own answer, the payload's nested fields — is never a
 * replica that has not caught up yet.
 */
export function onPrimary<T>(fn: () => T): T {
  return pinned.run(true, fn);
}

/**
 * Where list, detail and aggregate reads go (DATABASE_READ_URLS): the replicas in turn, the
 * primary inside onPrimary() or when there are none. Routing is opt-in: a service asks for
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
