// Runs `prisma generate` (postinstall). Prisma's CLI insists a native schema engine exists before it
// generates, and that binary cannot be downloaded on offline machines; generation itself does not use
// it. So, only when no engine is installed, point the check at any executable (this Node binary).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const enginesDir = path.resolve('node_modules/@prisma/engines');
const hasEngine = existsSync(enginesDir) && readdirSync(enginesDir).some((f) => f.startsWith('schema-engine'));
const env = { ...process.env };
if (!hasEngine && !env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
execFileSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], { stdio: 'inherit', env });
