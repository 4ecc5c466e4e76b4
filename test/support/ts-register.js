// Lets a child `node` process run the TypeScript sources directly (transpile only, with decorator
// metadata, as ts-jest does), so tests can start the real entry point without a build.
// Transpiled files are cached on disk by content hash: the tests start many such processes, and
// transpiling the sources (the generated Prisma client above all) is most of a start's CPU time.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const ts = require('typescript');

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  sourceMap: false,
};
const cacheDir = path.join(os.tmpdir(), `gateway-ts-cache-${ts.version}`);
fs.mkdirSync(cacheDir, { recursive: true });

require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const cached = path.join(
    cacheDir,
    `${crypto.createHash('sha256').update(JSON.stringify(compilerOptions)).update(filename).update('\0').update(source).digest('hex')}.js`,
  );
  let outputText;
  try {
    outputText = fs.readFileSync(cached, 'utf8');
  } catch {
    outputText = ts.transpileModule(source, { compilerOptions, fileName: filename }).outputText;
    // Written under a unique name, then renamed: processes starting together never read half a file.
    const partial = `${cached}.${process.pid}.tmp`;
    fs.writeFileSync(partial, outputText);
    fs.renameSync(partial, cached);
  }
  module._compile(outputText, filename);
};
