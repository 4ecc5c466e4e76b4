import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/ from the ground up (docs/architecture.md): a file may import its own layer and
 * those below it, never one above; only the entry points at the root of src/ (main.ts, app.ts) import
 * them all. Folder names are unique under src/, so a relative import names its layer.
 */
const LAYERS = [['platform', 'generated'], ['domain'], ['db'], ['services'], ['http'], ['schema'], ['resolvers'], ['graphql'], ['rest']];
/** Below http/ nothing speaks GraphQL or HTTP, nor validates input classes: the edges do. */
const EDGE_PACKAGES = ['graphql', 'type-graphql', '@apollo/server', '@apollo/utils.keyvaluecache', 'express', 'class-validator'];
const layerRules = LAYERS.map((folders, i) => {
  const above = LAYERS.slice(i + 1).flat();
  const patterns = [{ regex: '^(\\.\\./)+(app|main)$', message: 'Only the entry points import the app (docs/architecture.md).' }];
  if (above.length)
    patterns.push({ regex: `^(\\.\\./)+(${above.join('|')})(/|$)`, message: `${folders.join('/, ')}/ must not import a higher layer (docs/architecture.md).` });
  const edge = i >= LAYERS.findIndex((l) => l.includes('http'));
  const paths = edge
    ? []
    : EDGE_PACKAGES.map((name) => ({ name, message: `${folders.join('/, ')}/ must not import GraphQL, HTTP or input-class packages (docs/architecture.md).` }));
  return { files: folders.map((f) => `src/${f}/**/*.ts`), rules: { 'no-restricted-imports': ['error', { paths, patterns }] } };
});
/**
 * Domain errors are imported from src/domain/errors.ts and transport errors from src/http/errors.ts
 * (docs/architecture.md): no module passes the domain's errors on as its own.
 */
const noErrorReexports = {
  files: ['src/**/*.ts', 'scripts/**/*.ts', 'test/**/*.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: ':matches(ExportAllDeclaration, ExportNamedDeclaration)[source.value=/domain.errors$/]',
        message: 'Import domain errors from src/domain/errors.ts itself; do not re-export them (docs/architecture.md).',
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['dist/', 'dist-bench/', 'node_modules/', 'src/generated/', 'src/rest/generated/', 'client/src/gql/', 'client/dist/', 'coverage/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        URL: 'readonly',
        Blob: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'error',
    },
  },
  ...layerRules,
  noErrorReexports,
  // Tests read answers they have just asserted on (`res.body.data!`): a null there fails the test anyway.
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-non-null-assertion': 'off' } },
  // Plain CommonJS helpers (a require hook for child processes).
  { files: ['**/*.js', '**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
