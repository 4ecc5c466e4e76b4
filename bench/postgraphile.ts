/**
 * PostGraphile 5 (amber preset) on the benchmark's database, for comparison: the same first page of
 * the demo investor's distributions (ids, unit names, amounts, totalCount) through an auto-generated
 * GraphQL API. It runs without any authentication, which flatters it against the gateway.
 *
 * Forked by bench/run.ts (DATABASE_URL in the environment): listens on 127.0.0.1 at a free port,
 * reports `{ port }` over IPC, answers `'queries'` with the SQL statements sent so far, and exits
 * when the parent disconnects or on SIGTERM. PostGraphile 5 declares Node >= 22; the only newer API
 * it uses is Promise.withResolvers, polyfilled first (./with-resolvers) on Node 20. It comes from
 * bench/peer (./peer), which bench/run.ts installs before it forks this.
 */
import './with-resolvers';
import http from 'node:http';
import { Client, Pool } from 'pg';
import { serveForked } from './forked-server';
import { requirePeer } from './peer';

/** The part of PostGraphile's API used here (its own types are in bench/peer, not installed for the gateway's type-check). */
interface PostGraphile {
  createServ(grafserv: unknown): { addTo(server: http.Server): void };
  getSchema(): Promise<unknown>;
  release(): void | Promise<void>;
}
const { postgraphile } = requirePeer('postgraphile') as { postgraphile: (preset: object) => PostGraphile };
const { makePgService } = requirePeer('postgraphile/adaptors/pg') as { makePgService: (options: { pool: Pool; schemas: string[] }) => object };
const { grafserv } = requirePeer('postgraphile/grafserv/node') as { grafserv: unknown };
const { PostGraphileAmberPreset } = requirePeer('postgraphile/presets/amber') as { PostGraphileAmberPreset: object };

let queriesSent = 0;
// Every statement of every pooled client, however PostGraphile issues it.
const query = Client.prototype.query;
Client.prototype.query = function (this: Client, ...args: Parameters<typeof query>) {
  queriesSent++;
  return query.apply(this, args);
} as typeof query;

async function main(): Promise<void> {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error('DATABASE_URL is required');
  // Same pool size as the gateway's Prisma adapter (10).
  const pool = new Pool({ connectionString, max: 10 });
  const pgl = postgraphile({
    extends: [PostGraphileAmberPreset],
    pgServices: [makePgService({ pool, schemas: ['public'] })],
    grafserv: { graphqlPath: '/graphql', watch: false },
    grafast: { explain: false },
  });
  const serv = pgl.createServ(grafserv);
  const server = http.createServer();
  serv.addTo(server);
  // Build the schema before reporting ready, so the first measured request does not pay for it.
  await pgl.getSchema();
  serveForked(
    server,
    () => queriesSent,
    () => Promise.resolve(pgl.release()).finally(() => pool.end()),
  );
}

main().catch((err: unknown) => {
  console.error('[postgraphile]', err);
  process.exit(1);
});
