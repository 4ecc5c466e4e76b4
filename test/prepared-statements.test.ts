import { openDatabase, type Database } from '../src/db/database';
import { statementNames } from '../src/db/pg-pool';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

/**
 * Issue 10, goal 4: no statement re-parsed on every request. On PostgreSQL each distinct SQL text
 * is prepared once per connection and then only executed (PGlite has no connections to keep them on).
 */

describe('statement names', () => {
  it('give one name per SQL text, and none past the limit', () => {
    const name = statementNames(2);
    const a = name({ sql: 'SELECT 1' });
    expect(a).toMatch(/^p[\w-]+$/);
    expect(name({ sql: 'SELECT 1' })).toBe(a);
    const b = name({ sql: 'SELECT 2' });
    expect(b).toMatch(/^p[\w-]+$/);
    expect(b).not.toBe(a);
    expect(name({ sql: 'SELECT 3' })).toBeUndefined();
    expect(name({ sql: 'SELECT 2' })).toBe(b);
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl) {
  describe('prepared statements (PostgreSQL)', () => {
    let t: TestGateway;
    let db: Database;

    beforeAll(async () => {
      let url = '';
      t = await startTestGateway({}, { databaseUrl: (own) => (url = own) });
      // One connection, so that its session's pg_prepared_statements sees every statement sent.
      db = await openDatabase({ databaseUrl: url, poolSize: 1 });
    });
    afterAll(async () => {
      await db.close();
      await t.close();
    });

    it('are parsed once per connection and executed on every request', async () => {
      const runs = 5;
      for (let i = 0; i < runs; i++) {
        expect(await db.prisma.user.findUnique({ where: { email: DEMO_EMAILS.investor }, select: { id: true } })).not.toBeNull();
      }
      // generic_plans + custom_plans: how often PostgreSQL executed the prepared statement.
      const rows = await db.prisma.$queryRaw<{ statement: string; executions: number }[]>`
        SELECT statement, (generic_plans + custom_plans)::int AS executions FROM pg_prepared_statements
        WHERE statement LIKE '%"users"%' AND statement NOT LIKE '%pg_prepared_statements%'`;
      expect(rows).toHaveLength(1);
      expect(rows[0].executions).toBe(runs);
    });
  });
}
