/**
 * The benchmark's raw floor: `GET /api/v1/distributions` with nothing but node:http and `pg`
 * (no Express, no Prisma, no GraphQL), answering the same JSON as the REST route for the default
 * page. It is what the gateway would cost with all of its layers taken away, so the gap between the
 * two is the price of those layers.
 *
 * Run by bench/run.ts as a forked child (DATABASE_URL in the environment); it listens on
 * 127.0.0.1 at a free port and reports `{ port, queriesPerRequest }` over IPC. It exits when the
 * parent disconnects or on SIGTERM, so it never outlives the benchmark.
 *
 * Fairness: the bearer token's signature is NOT verified (the payload is only decoded), but every
 * request does one session lookup (session + user + investor in one query), as the gateway does
 * with three. Only page 1 with 15 rows is served; anything else is a 404.
 */
import http from 'node:http';
import { Pool } from 'pg';

/** Session lookup, page of rows, count. */
const QUERIES_PER_REQUEST = 3;
const PER_PAGE = 15;
const ROUTE = '/api/v1/distributions';

const SESSION_SQL = `
  SELECT s.revoked_at, s.expires_at, u.id AS user_id, u.deleted_at, i.id AS investor_id
  FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN investors i ON i.user_id = u.id
  WHERE s.id = $1`;
// Amounts as text so that no digit is lost on the way; turned into JSON numbers below.
const LIST_SQL = `
  SELECT d.id, d.unit_id, u.name AS unit_name, d.period, d.type::text AS type, d.gross_amount::text AS gross_amount,
         d.net_amount::text AS net_amount, d.fees::text AS fees, d.status::text AS status, d.distributed_at, d.created_at
  FROM distributions d JOIN units u ON u.id = d.unit_id
  WHERE d.investor_id = $1
  ORDER BY d.created_at DESC, d.id DESC
  LIMIT $2`;
const COUNT_SQL = 'SELECT count(*)::int AS total FROM distributions WHERE investor_id = $1';

interface SessionRow {
  revoked_at: Date | null;
  expires_at: Date;
  user_id: number;
  deleted_at: Date | null;
  investor_id: number | null;
}

interface DistributionRow {
  id: number;
  unit_id: number;
  unit_name: string;
  period: string;
  type: string;
  gross_amount: string;
  net_amount: string;
  fees: string;
  status: string;
  distributed_at: Date | null;
  created_at: Date;
}

/** The REST face's timestamp format: "2026-03-31T00:00:00+00:00". */
const timestamp = (d: Date) => d.toISOString().slice(0, 19) + '+00:00';

/**
 * NUMERIC(14,2) text → JSON number. Up to 15 significant digits survive a double exactly, and
 * JSON.stringify writes the shortest form ("32.20" → 32.2), as the REST face does.
 */
const amount = (text: string) => Number(text);

/** Laravel's UrlWindow (3 on each side), as in src/pagination.ts. */
function pageElements(current: number, last: number): (number | '...')[] {
  const range = (a: number, b: number) => Array.from({ length: Math.max(b - a + 1, 0) }, (_, i) => a + i);
  if (last < 14) return range(1, last);
  if (current <= 7) return [...range(1, 10), '...', last - 1, last];
  if (current > last - 7) return [1, 2, '...', ...range(last - 9, last)];
  return [1, 2, '...', ...range(current - 3, current + 3), '...', last - 1, last];
}

function paginated(rows: DistributionRow[], total: number, path: string) {
  const current = 1;
  const last = Math.max(Math.ceil(total / PER_PAGE), 1);
  const url = (page: number) => `${path}?page=${page}`;
  const next = last > current ? url(current + 1) : null;
  const data = rows.map((r) => ({
    id: r.id,
    unit_id: r.unit_id,
    unit_name: r.unit_name,
    period: r.period,
    type: r.type.toLowerCase(),
    gross_amount: amount(r.gross_amount),
    net_amount: amount(r.net_amount),
    fees: amount(r.fees),
    status: r.status.toLowerCase(),
    distributed_at: r.distributed_at ? timestamp(r.distributed_at) : null,
    created_at: timestamp(r.created_at),
  }));
  const links = [
    { url: null, label: '&laquo; Previous', active: false },
    ...pageElements(current, last).map((e) => (e === '...' ? { url: null, label: '...', active: false } : { url: url(e), label: String(e), active: e === current })),
    { url: next, label: 'Next &raquo;', active: false },
  ];
  return {
    success: true,
    data,
    links: { first: url(1), last: url(last), prev: null, next },
    meta: {
      current_page: current,
      from: rows.length ? 1 : null,
      last_page: last,
      links,
      path,
      per_page: PER_PAGE,
      to: rows.length ? rows.length : null,
      total,
    },
  };
}

/** The session id from a JWT's payload; the signature is deliberately not checked (see above). */
function sessionIdOf(authorization: string | undefined): { sid: string; sub: string } | null {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sid?: unknown; sub?: unknown };
    return typeof claims.sid === 'string' && /^[0-9a-f-]{36}$/i.test(claims.sid) && typeof claims.sub === 'string' ? { sid: claims.sid, sub: claims.sub } : null;
  } catch {
    return null;
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function handle(pool: Pool, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method !== 'GET' || req.url !== ROUTE) return send(res, 404, { success: false, message: 'Not found.' });
  const claims = sessionIdOf(req.headers.authorization);
  if (!claims) return send(res, 401, { success: false, message: 'Unauthenticated.' });
  const { rows: sessions } = await pool.query<SessionRow>(SESSION_SQL, [claims.sid]);
  const s = sessions[0];
  if (!s || s.revoked_at || s.expires_at <= new Date() || s.deleted_at || String(s.user_id) !== claims.sub || s.investor_id === null) {
    return send(res, 401, { success: false, message: 'Unauthenticated.' });
  }
  // Page and count in parallel on two pooled connections, as the gateway's service does.
  const [list, count] = await Promise.all([
    pool.query<DistributionRow>(LIST_SQL, [s.investor_id, PER_PAGE]),
    pool.query<{ total: number }>(COUNT_SQL, [s.investor_id]),
  ]);
  send(res, 200, paginated(list.rows, count.rows[0].total, `http://${req.headers.host ?? '127.0.0.1'}${ROUTE}`));
}

function main(): void {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error('DATABASE_URL is required');
  // Same pool size as the gateway's Prisma adapter (10).
  const pool = new Pool({ connectionString, max: 10 });
  const server = http.createServer((req, res) => {
    handle(pool, req, res).catch((err: unknown) => {
      console.error('[floor]', err);
      if (!res.headersSent) send(res, 500, { success: false, message: 'Server Error.' });
    });
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('unexpected server address');
    process.send?.({ port: address.port, queriesPerRequest: QUERIES_PER_REQUEST });
  });
}

main();
