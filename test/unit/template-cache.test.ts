import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importClosure, templateKey } from '../support/template-cache';
import { TEST_SEED } from '../support/template';

describe('the test template cache key', () => {
  it('covers every file reached through relative imports, index files and cycles included, and nothing else', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'closure-'));
    const file = (name: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    };
    file('seed.ts', "import { a } from './a';\nimport type { B } from './b';\nimport { x } from 'some-package';\n");
    file('a.ts', "export { c } from './c';\nimport './seed';\n");
    file('b.ts', 'export type B = 1;\n');
    file('c/index.ts', "const w = await import('../words');\n");
    file('words.ts', 'export const words = [];\n');
    file('unrelated.ts', "import './seed';\n");
    expect(importClosure([path.join(dir, 'seed.ts')]).map((f) => path.relative(dir, f))).toEqual([
      'a.ts',
      'b.ts',
      path.join('c', 'index.ts'),
      'seed.ts',
      'words.ts',
    ]);
  });

  it("reaches the seed's modules in the project and changes with the seed's size", () => {
    const root = path.resolve(__dirname, '../..');
    const closure = importClosure([path.join(root, 'src/db/seed')]).map((f) => path.relative(root, f));
    expect(closure).toEqual(expect.arrayContaining(['src/db/seed/index.ts', 'src/db/seed/words.ts', 'src/domain/money-rules.ts']));
    expect(templateKey(TEST_SEED)).toBe(templateKey({ ...TEST_SEED }));
    expect(templateKey({ ...TEST_SEED, investors: TEST_SEED.investors + 1 })).not.toBe(templateKey(TEST_SEED));
  });
});
