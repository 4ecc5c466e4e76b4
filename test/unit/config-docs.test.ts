import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VARIABLES, type Variable } from '../../src/platform/config';

/**
 * The configuration tables operators read — docs/operations.md (every variable, its type, default and
 * meaning) and README.md (the same, shorter) — list exactly the variables src/platform/config.ts
 * declares, with the default it declares.
 */
const declared = new Map<string, Variable>(Object.entries(VARIABLES));

/** Read by the OpenTelemetry SDK itself before the configuration is (src/platform/tracing.ts), yet worth a row. */
const readByTracing = (name: string) => name.startsWith('OTEL_');

/** The default column as the declaration says it: a default as written in the environment, or what unset means. */
function declaredDefault(name: string): string | undefined {
  const variable = declared.get(name);
  if (!variable) return undefined;
  return variable.default === undefined ? (variable.unset ?? 'unset') : `\`${variable.default}\``;
}

function section(file: string, heading: string): string {
  const doc = readFileSync(join(__dirname, '../..', file), 'utf8');
  const start = doc.indexOf(`\n${heading}\n`);
  expect(start).toBeGreaterThan(-1);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

/** Variable → its default cell, from the first table of the section; a row may name several variables. */
function configTable(file: string): Map<string, string> {
  const lines = section(file, '## Configuration').split('\n');
  const header = lines.findIndex((l) => l.startsWith('| variable |'));
  expect(header).toBeGreaterThan(-1);
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
  const column = cells(lines[header]).indexOf('default');
  const rows = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(cells(line));
  }
  return new Map(
    rows.flatMap((row) => {
      const names = [...row[0].matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]);
      // "`A`, `B` | `1`, `2`": one default each; "`A`, `B` | unset": the same for both.
      const defaults = row[column].split(', ');
      return names.map((name, i): [string, string] => [name, defaults.length === names.length ? defaults[i] : row[column]]);
    }),
  );
}

describe.each(['docs/operations.md', 'README.md'])('the configuration table of %s', (file) => {
  it('lists every declared variable', () => {
    const documented = configTable(file);
    expect([...declared.keys()].filter((name) => !documented.has(name))).toEqual([]);
  });

  it('lists no variable the gateway does not declare', () => {
    expect([...configTable(file).keys()].filter((name) => !declared.has(name) && !readByTracing(name))).toEqual([]);
  });

  it('gives each variable its declared default', () => {
    const differing = [...configTable(file)]
      .filter(([name, cell]) => declared.has(name) && cell !== declaredDefault(name))
      .map(([name, cell]) => ({ name, documented: cell, declared: declaredDefault(name) }));
    expect(differing).toEqual([]);
  });
});
