import { defineConfig } from 'prisma/config';

// The CLI is used offline for `generate` only; migrations run through src/db/migrate.ts (WASM engine).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
