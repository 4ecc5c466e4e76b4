import 'reflect-metadata';
import { Client } from 'pg';
import { openDatabase } from '../src/db/database';
import { applyMigrations } from '../src/db/migrate';
import { seedDemoData } from '../src/db/seed';
const n = Number(process.argv[2] ?? 12);
const seed = Number(process.argv[3] ?? 7);
async function main() {
  const url = 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = 'idem_check';
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const db = await openDatabase({ databaseUrl: `postgresql://postgres@127.0.0.1:5432/${name}`, poolSize: 2 });
  await applyMigrations(db.adapterFactory);
  await seedDemoData(db.prisma, { investors: n, seed });
  const rows = await db.prisma.$queryRawUnsafe(`
    WITH reqs AS (
      SELECT investor_id, min(created_at) first_at, 'inv' k FROM investment_requests GROUP BY investor_id
      UNION ALL SELECT investor_id, min(created_at), 'wd' FROM withdrawal_requests GROUP BY investor_id),
    firstreq AS (SELECT investor_id, min(first_at) first_at FROM reqs GROUP BY investor_id),
    kyc AS (SELECT investor_id, min(reviewed_at) approved_at FROM kyc_documents WHERE status='APPROVED' GROUP BY investor_id)
    SELECT count(*) FILTER (WHERE k.approved_at IS NULL) AS no_kyc,
           count(*) FILTER (WHERE k.approved_at > f.first_at) AS late_kyc,
           count(*) AS with_requests
    FROM firstreq f LEFT JOIN kyc k USING (investor_id)`);
  console.log(n, seed, rows);
  await db.close();
}
main();
