import { readdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/db/database';
import { MIGRATIONS_DIR, applyMigrations } from '../src/db/migrate';

const migrationNames = () => readdirSync(MIGRATIONS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

describe('migrations through the WASM schema engine', () => {
  it('migrate several fresh databases in one process, and a second run applies nothing', async () => {
    for (let i = 0; i < 3; i++) {
      const pglite = new PGlite();
      const db = await openDatabase({ pglite });
      expect(await applyMigrations(db.adapterFactory)).toEqual(migrationNames());
      expect(await applyMigrations(db.adapterFactory)).toEqual([]);
      const recorded = await db.prisma.$queryRaw<Array<{ migration_name: string }>>`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`;
      expect(recorded.map((r) => r.migration_name)).toEqual(migrationNames());
      await db.close();
      await pglite.close();
    }
  });
});
