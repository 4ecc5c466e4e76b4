import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, httpStatus } from '../../src/http/errors';

/**
 * docs/api.md "Error codes" is the client developers' catalogue: it must list every code of the one
 * code table (HTTP_STATUS in src/http/errors.ts) with the status that table gives, and nothing else
 * but the request errors GraphQL and Apollo Server answer themselves.
 */
const GRAPHQL_OWN: Record<string, number> = {
  GRAPHQL_PARSE_FAILED: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  OPERATION_RESOLUTION_FAILURE: 400,
  PERSISTED_QUERY_NOT_FOUND: 200,
};

interface Row {
  code: string;
  status: string;
  graphql: string;
  meaning: string;
  action: string;
}

function catalogue(): Row[] {
  const doc = readFileSync(join(__dirname, '../../docs/api.md'), 'utf8');
  const start = doc.indexOf('\n## Error codes\n');
  expect(start).toBeGreaterThan(-1);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end === -1 ? undefined : end);
  const lines = section.split('\n').filter((l) => l.startsWith('|'));
  const [header, rule, ...body] = lines;
  expect(header).toBe('| code | HTTP status | GraphQL `extensions.code` | meaning | what a client should do |');
  expect(rule).toMatch(/^\|(---\|)+$/);
  return body.map((line) => {
    const cells = line
      .slice(1, -1)
      .split(' | ')
      .map((c) => c.trim());
    expect(cells).toHaveLength(5);
    const [code, status, graphql, meaning, action] = cells;
    return { code: code.replace(/^`|`$/g, ''), status, graphql, meaning, action };
  });
}

describe('docs/api.md "Error codes"', () => {
  const rows = catalogue();
  const byCode = new Map(rows.map((r) => [r.code, r]));

  it('lists each code once', () => {
    expect(byCode.size).toBe(rows.length);
  });

  it.each(ERROR_CODES.map((c) => [c]))('%s: listed with the HTTP status of the code table', (code) => {
    const row = byCode.get(code);
    expect(row).toBeDefined();
    expect(row!.status).toBe(String(httpStatus(code)));
    expect([`\`${code}\``, '—']).toContain(row!.graphql);
    expect(row!.meaning.length).toBeGreaterThan(0);
    expect(row!.action.length).toBeGreaterThan(0);
  });

  it("lists nothing else but GraphQL's and Apollo Server's own request errors", () => {
    const known = new Set<string>(ERROR_CODES);
    for (const row of rows.filter((r) => !known.has(r.code))) {
      expect(Object.keys(GRAPHQL_OWN)).toContain(row.code);
      expect(row.status).toBe(String(GRAPHQL_OWN[row.code]));
      expect(row.graphql).toBe(`\`${row.code}\``);
    }
    for (const code of Object.keys(GRAPHQL_OWN)) expect(byCode.has(code)).toBe(true);
  });
});
