/**
 * Developer command: writes the SQL that takes prisma/migrations to prisma/schema.prisma as a new
 * migration folder (the offline stand-in for `prisma migrate dev --create-only`).
 *   npm run migration:new -- add_something
 *   npm run migration:new -- --check   (exit 1 when schema.prisma has changes without a migration)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { MIGRATIONS_DIR, diffMigrationsToSchema } from '../src/db/migrate';

async function main(): Promise<void> {
  const arg = process.argv[2] ?? '';
  const scratch = new PGlite();
  const sql = await diffMigrationsToSchema(new PrismaPGlite(scratch) as unknown as SqlMigrationAwareDriverAdapterFactory);
  await scratch.close();
  if (arg === '--check') {
    if (sql) {
      console.error('prisma/schema.prisma has changes that no migration covers:\n' + sql);
      process.exit(1);
    }
    console.log('migrations match prisma/schema.prisma');
    return;
  }
  if (!/^[a-z0-9_]+$/.test(arg)) throw new Error('usage: npm run migration:new -- <snake_case_name>');
  if (!sql) {
    console.log('schema.prisma matches the migrations: nothing to write');
    return;
  }
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = path.join(MIGRATIONS_DIR, `${stamp}_${arg}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'migration.sql'), sql);
  console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
