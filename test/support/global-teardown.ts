import { Client, escapeIdentifier } from 'pg';
import { TEMPLATE_INFO_ENV, clonePrefix, type TemplateInfo } from './template';

export default async function globalTeardown(): Promise<void> {
  const info = JSON.parse(process.env[TEMPLATE_INFO_ENV] ?? 'null') as TemplateInfo | null;
  if (!info) return;
  // The PGlite template stays in its cache for the next run (template-cache.ts).
  if (info.kind === 'pglite') return;
  const admin = new Client({ connectionString: info.serverUrl });
  await admin.connect();
  const prefix = clonePrefix(info);
  const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
  // Concurrent drops share their checkpoints: one connection each, a few at a time.
  for (let i = 0; i < rows.length; i += 8) {
    await Promise.all(
      rows.slice(i, i + 8).map(async ({ datname }) => {
        const c = new Client({ connectionString: info.serverUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(datname)} WITH (FORCE)`);
        await c.end();
      }),
    );
  }
  await admin.query(`DROP DATABASE IF EXISTS ${info.location}`);
  await admin.end();
}
