/**
 * The benchmark's raw floor: the gateway's busiest read and its two money writes with nothing but
 * node:http and `pg` (no Express, no Prisma, no GraphQL). The list answers the same JSON as the REST
 * route for the default page; the writes send the services' statements with the same row locks in
 * the same order, in one transaction: the unit row FOR NO KEY UPDATE / the holding row FOR UPDATE
 * with the investor's KYC statuses, the insert that checks the pending sum, then the audit event and
 * the change feed's NOTIFY in one statement. It is what the gateway would cost with all of its
 * layers taken away, so the gap between the two is the price of those layers.
 *
 * Run by bench/run.ts as a forked child (DATABASE_URL and JWT_SECRET in the environment); it listens
 * on 127.0.0.1 at a free port and reports `{ port }` over IPC, answers `'queries'` messages with the
 * number of SQL statements sent so far, and exits when the parent disconnects or on SIGTERM.
 *
 * Every request verifies the bearer token (HS256, signature and expiry) and looks the session up
 * (session + user + investor in one statement). Every statement is a named prepared statement.
 * Only page 1 with 15 rows is served; anything else is a 404.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import Decimal from 'decimal.js';
import { Pool, type QueryConfig, type QueryResultRow } from 'pg';
import { serveForked } from './forked-server';

const PER_PAGE = 15;
const ROUTE = '/api/v1/distributions';

const SESSION_SQL = `
  SELECT s.revoked_at, s.expires_at, u.id AS user_id, u.deleted_at, i.id AS investor_id
  FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN investors i ON i.user_id = u.id
  WHERE s.id = $1`;
// Amounts as text so that no digit is lost on the way; turned into JSON numbers below.
const LIST_SQL = `
  SELECT d.id, d.unit_id, u.name AS unit_name, d.period, d.cadence::text AS type, d.gross_amount::text AS gross_amount,
         d.net_amount::text AS net_amount, d.fees::text AS fees, d.status::text AS status,
         COALESCE(d.distributed_at, d.scheduled_for::timestamp AT TIME ZONE 'UTC') AS distributed_at, d.created_at
  FROM distributions d JOIN units u ON u.id = d.unit_id
  WHERE d.investor_id = $1
  ORDER BY d.created_at DESC, d.id DESC
  LIMIT $2`;
const COUNT_SQL = 'SELECT count(*)::int AS total FROM distributions WHERE investor_id = $1';
/** The investor's distinct KYC statuses (the services' kycStatuses), read by the statement that locks the write's row. */
const KYC_STATUSES = (investorId: string) => `ARRAY(SELECT DISTINCT status::text FROM kyc_documents WHERE investor_id = ${investorId})`;

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
  distributed_at: Date;
  created_at: Date;
}

/** The REST face's timestamp format: "2026-03-31T00:00:00+00:00". */
const timestamp = (d: Date) => d.toISOString().slice(0, 19) + '+00:00';

/**
 * NUMERIC(14,2) text → JSON number. Up to 15 significant digits survive a double exactly, and
 * JSON.stringify writes the shortest form ("32.20" → 32.2), as the REST face does.
 */
const amount = (text: string) => Number(text);

/** Laravel's UrlWindow (3 on each side), as in src/services/pagination.ts. */
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
    distributed_at: timestamp(r.distributed_at),
    created_at: timestamp(r.created_at),
  }));
  const links = [
    { url: null, label: '&laquo; Previous', active: false },
    ...pageElements(current, last).map((e) =>
      e === '...' ? { url: null, label: '...', active: false } : { url: url(e), label: String(e), active: e === current },
    ),
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

const SECRET = process.env.JWT_SECRET ?? '';
const HS256_HEADER = /"alg"\s*:\s*"HS256"/;

/** The verified claims of an HS256 access token, or null (bad signature, expired, malformed). */
function verify(authorization: string | undefined): { sid: string; sub: string } | null {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  const [header, payload, signature] = token?.split('.') ?? [];
  if (!header || !payload || !signature) return null;
  const expected = createHmac('sha256', SECRET).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    if (!HS256_HEADER.test(Buffer.from(header, 'base64url').toString('utf8'))) return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sid?: unknown; sub?: unknown; exp?: unknown };
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return null;
    return typeof claims.sid === 'string' && typeof claims.sub === 'string' ? { sid: claims.sid, sub: claims.sub } : null;
  } catch {
    return null;
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

let queriesSent = 0;

/** A named (prepared once per connection) statement. */
function statement(name: string, text: string): (values: unknown[]) => QueryConfig {
  return (values) => ({ name, text, values });
}
const Q = {
  session: statement('session', SESSION_SQL),
  list: statement('list', LIST_SQL),
  count: statement('count', COUNT_SQL),
  unitPrice: statement(
    'unit_price',
    'SELECT u.total_value::text, u.min_investment::text AS unit_min, c.min_investment::text AS min, c.max_investment::text AS max FROM units u LEFT JOIN app_config c ON c.id = 1 WHERE u.id = $1',
  ),
  lockUnit: statement('lock_unit', `SELECT status::text, available_percentage::text, ${KYC_STATUSES('$2')} AS kyc FROM units WHERE id = $1 FOR NO KEY UPDATE`),
  insertInvestment: statement(
    'insert_investment',
    `INSERT INTO investment_requests (investor_id, unit_id, amount, ownership_percentage, created_at, updated_at)
     SELECT $1, $2, $3, $4, statement_timestamp(), statement_timestamp()
     WHERE $4::numeric <= $5::numeric - (SELECT COALESCE(sum(ownership_percentage), 0) FROM investment_requests WHERE unit_id = $2 AND status = 'PENDING')
     RETURNING id, investor_id, unit_id, amount::text, ownership_percentage::text, status::text, created_at`,
  ),
  lockHolding: statement(
    'lock_holding',
    `SELECT u.id, h.ownership_percentage::text, h.invested_amount::text, ${KYC_STATUSES('$1')} AS kyc FROM units u
     LEFT JOIN LATERAL (SELECT ownership_percentage, invested_amount FROM holdings WHERE investor_id = $1 AND unit_id = u.id FOR UPDATE) h ON true
     WHERE u.id = $2`,
  ),
  insertWithdrawal: statement(
    'insert_withdrawal',
    `INSERT INTO withdrawal_requests (investor_id, unit_id, ownership_percentage, invested_amount, reason, created_at, updated_at)
     SELECT $1, $2, $3, $4, $5, statement_timestamp(), statement_timestamp()
     WHERE $3::numeric <= $6::numeric - (SELECT COALESCE(sum(ownership_percentage), 0) FROM withdrawal_requests WHERE investor_id = $1 AND unit_id = $2 AND status = 'PENDING')
     RETURNING id, investor_id, unit_id, ownership_percentage::text, invested_amount::text, reason, status::text, created_at`,
  ),
  audit: statement(
    'audit',
    `WITH event AS (INSERT INTO audit_events (actor_id, actor_role, action, target_type, target_id, changes) VALUES ($1, 'INVESTOR', $2, $3, $4, $5))
     SELECT pg_notify('gateway_changes', json_build_object('at', floor(extract(epoch FROM clock_timestamp()) * 1000), 'changes', $6::json)::text)`,
  ),
};

interface Queryable {
  query<R extends QueryResultRow>(config: QueryConfig): Promise<{ rows: R[] }>;
}
function run<R extends QueryResultRow>(db: Queryable, config: QueryConfig): Promise<{ rows: R[] }> {
  queriesSent++;
  return db.query<R>(config);
}

/** The caller's investor id, or null after answering 401. */
async function authenticate(pool: Pool, req: http.IncomingMessage, res: http.ServerResponse): Promise<{ userId: number; investorId: number } | null> {
  const claims = verify(req.headers.authorization);
  const s = claims ? (await run<SessionRow>(pool, Q.session([claims.sid]))).rows[0] : undefined;
  if (!claims || !s || s.revoked_at || s.expires_at <= new Date() || s.deleted_at || String(s.user_id) !== claims.sub || s.investor_id === null) {
    send(res, 401, { success: false, message: 'Unauthenticated.' });
    return null;
  }
  return { userId: s.user_id, investorId: s.investor_id };
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as Record<string, unknown>;
}

class Conflict extends Error {}

const INVALID = { status: 422, body: { success: false, message: 'The given data was invalid.' } };

/** BEGIN … COMMIT on one pooled connection; a Conflict rolls back and answers 409. */
async function transaction<T>(pool: Pool, fn: (db: Queryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await run(client, { text: 'BEGIN' });
    const result = await fn(client);
    await run(client, { text: 'COMMIT' });
    return result;
  } catch (err) {
    await run(client, { text: 'ROLLBACK' });
    throw err;
  } finally {
    client.release();
  }
}

function assertKyc(statuses: string[] | undefined): void {
  if (!statuses?.includes('APPROVED')) throw new Conflict('Identity verification is not approved yet.');
}

/** The created request's audit event and change-feed NOTIFY, one statement as the services send them. */
async function recordCreated(db: Queryable, who: { userId: number; investorId: number }, type: string, created: Record<string, unknown>): Promise<void> {
  const change = JSON.stringify([{ type, id: created.id, investorId: who.investorId }]);
  await run(db, Q.audit([who.userId, `${type}.created`, type, String(created.id), JSON.stringify({ after: created }), change]));
}

async function createInvestment(pool: Pool, who: { userId: number; investorId: number }, body: Record<string, unknown>) {
  const unitId = Number(body.unit_id);
  const amount = new Decimal(String(body.amount));
  const unit = (await run<{ total_value: string; unit_min: string; min: string | null; max: string | null }>(pool, Q.unitPrice([unitId]))).rows[0];
  if (!unit || amount.lt(Decimal.max(unit.min ?? 0, unit.unit_min)) || (unit.max && amount.gt(unit.max))) return INVALID;
  const pct = amount.dividedBy(unit.total_value).times(100).toDecimalPlaces(6, Decimal.ROUND_DOWN);
  const row = await transaction(pool, async (db) => {
    const locked = (await run<{ status: string; available_percentage: string; kyc: string[] }>(db, Q.lockUnit([unitId, who.investorId]))).rows[0];
    assertKyc(locked.kyc);
    if (locked.status !== 'AVAILABLE') throw new Conflict('Not open for investment.');
    const created = (
      await run<Record<string, unknown>>(db, Q.insertInvestment([who.investorId, unitId, amount.toFixed(2), pct.toFixed(6), locked.available_percentage]))
    ).rows[0];
    if (!created) throw new Conflict('Insufficient availability.');
    await recordCreated(db, who, 'investment_request', created);
    return created;
  });
  return {
    status: 201,
    body: {
      success: true,
      data: { ...row, amount: Number(row.amount), ownership_percentage: Number(row.ownership_percentage), status: String(row.status).toLowerCase() },
    },
  };
}

async function createWithdrawal(pool: Pool, who: { userId: number; investorId: number }, body: Record<string, unknown>) {
  const unitId = Number(body.unit_id);
  const pct = new Decimal(String(body.ownership_percentage));
  const reason = String(body.reason ?? '').trim();
  if (!reason || pct.lte(0) || pct.gt(100)) return INVALID;
  const row = await transaction(pool, async (db) => {
    const holding = (await run<{ ownership_percentage: string | null; invested_amount: string; kyc: string[] }>(db, Q.lockHolding([who.investorId, unitId])))
      .rows[0];
    if (!holding) return null;
    assertKyc(holding.kyc);
    if (holding.ownership_percentage === null) throw new Conflict('Insufficient holding.');
    const invested = new Decimal(holding.invested_amount).times(pct).dividedBy(holding.ownership_percentage).toDecimalPlaces(2);
    const created = (
      await run<Record<string, unknown>>(
        db,
        Q.insertWithdrawal([who.investorId, unitId, pct.toFixed(6), invested.toFixed(2), reason, holding.ownership_percentage]),
      )
    ).rows[0];
    if (!created) throw new Conflict('Insufficient holding.');
    await recordCreated(db, who, 'withdrawal_request', created);
    return created;
  });
  if (!row) return INVALID;
  return {
    status: 201,
    body: {
      success: true,
      data: {
        ...row,
        ownership_percentage: Number(row.ownership_percentage),
        invested_amount: Number(row.invested_amount),
        status: String(row.status).toLowerCase(),
      },
    },
  };
}

type Write = (pool: Pool, who: { userId: number; investorId: number }, body: Record<string, unknown>) => Promise<{ status: number; body: unknown }>;
const WRITES: Record<string, Write> = {
  '/api/v1/investment-requests': createInvestment,
  '/api/v1/withdrawals/requests': createWithdrawal,
};

async function handle(pool: Pool, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const write = req.method === 'POST' ? WRITES[req.url ?? ''] : undefined;
  if (!write && (req.method !== 'GET' || req.url !== ROUTE)) return send(res, 404, { success: false, message: 'Not found.' });
  const who = await authenticate(pool, req, res);
  if (!who) return;
  if (write) {
    try {
      const { status, body } = await write(pool, who, await readJson(req));
      return send(res, status, body);
    } catch (err) {
      if (err instanceof Conflict) return send(res, 409, { success: false, message: err.message });
      throw err;
    }
  }
  // Page and count in parallel on two pooled connections, as the gateway's service does.
  const [list, count] = await Promise.all([
    run<DistributionRow>(pool, Q.list([who.investorId, PER_PAGE])),
    run<{ total: number }>(pool, Q.count([who.investorId])),
  ]);
  send(res, 200, paginated(list.rows, count.rows[0].total, `http://${req.headers.host ?? '127.0.0.1'}${ROUTE}`));
}

function main(): void {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString || !SECRET) throw new Error('DATABASE_URL and JWT_SECRET are required');
  // Same pool size as the gateway's Prisma adapter (10).
  const pool = new Pool({ connectionString, max: 10 });
  const server = http.createServer((req, res) => {
    handle(pool, req, res).catch((err: unknown) => {
      // The load generator hangs up on requests still in flight when a run ends.
      if (req.destroyed) return;
      console.error('[floor]', err);
      if (!res.headersSent) send(res, 500, { success: false, message: 'Server Error.' });
    });
  });
  serveForked(
    server,
    () => queriesSent,
    () => pool.end(),
  );
}

main();
