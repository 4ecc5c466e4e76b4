// `npm run codegen`: compile (type errors are `npm run typecheck`'s business, so they do not stop
// this), emit schema.graphql and docs/openapi.json, then run GraphQL Code Generator.
import { execSync } from 'node:child_process';

try {
  execSync('npx tsc -p tsconfig.json', { stdio: 'inherit' });
} catch {
  console.warn('codegen: tsc reported errors (see above); emitting from what compiled');
}
execSync('node dist/scripts/emit-contracts.js', { stdio: 'inherit' });
execSync('npx graphql-codegen --config codegen.yml', { stdio: 'inherit' });
