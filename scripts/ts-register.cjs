// Lets `node -r ./scripts/ts-register.cjs` run the TypeScript sources directly (SWC with .swcrc, as
// the Jest transform and `npm run build` do): the development scripts (schema:check, migration:new,
// openapi:examples) and the tests' child processes, which start the real entry point without a build.
// Transpiled files are cached on disk by content hash: the tests start many such processes, and
// transpiling the sources (the generated Prisma client above all) was most of a start's CPU time.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const swc = require('@swc/core');
const { version } = require('@swc/core/package.json');

const configFile = path.join(__dirname, '..', '.swcrc');
const swcrc = fs.readFileSync(configFile, 'utf8');
const cacheDir = path.join(os.tmpdir(), `gateway-swc-cache-${version}`);
fs.mkdirSync(cacheDir, { recursive: true });

require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const cached = path.join(cacheDir, `${crypto.createHash('sha256').update(swcrc).update(filename).update('\0').update(source).digest('hex')}.js`);
  let outputText;
  try {
    outputText = fs.readFileSync(cached, 'utf8');
  } catch {
    outputText = swc.transformSync(source, { filename, configFile, sourceMaps: false }).code;
    // Written under a unique name, then renamed: processes starting together never read half a file.
    const partial = `${cached}.${process.pid}.tmp`;
    fs.writeFileSync(partial, outputText);
    fs.renameSync(partial, cached);
  }
  module._compile(outputText, filename);
};
