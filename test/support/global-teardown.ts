import { rm } from 'node:fs/promises';
import { Client } from 'pg';
import { TEMPLATE_INFO_ENV, type TemplateInfo } from './template';

export default async function globalTeardown(): Promise<void> {
  const info = JSON.parse(process.env[TEMPLATE_INFO_ENV] ?? 'null') as TemplateInfo | null;
  if (!info) return;
  if (info.kind === 'pglite') return rm(info.location, { force: true });
  const admin = new Client({ connectionString: info.serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${info.location}`);
  await admin.end();
}
