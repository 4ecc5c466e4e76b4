import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { fromRoot } from '../src/platform/paths';
import { childDatabase, startEntry } from './support/entry-process';
import { budget } from './support/time-budget';

/** A span as OTLP/JSON carries it (ids hex-encoded). */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}
const SERVER = 2;

/** An OTLP/HTTP receiver (JSON encoding) standing in for the collector. */
async function startCollector() {
  const spans: Span[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Span[] }> }> };
        for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
        waiters.splice(0).forEach((w) => w());
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    /** Waits (on each export) until `find` returns something. */
    async until<T>(find: () => T | undefined): Promise<T> {
      for (let found = find(); ; found = find()) {
        if (found !== undefined) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The chain from a span up to its root, each span's parent after it. */
function ancestry(spans: Span[], span: Span): Span[] {
  const chain = [span];
  for (let s = span; s.parentSpanId;) {
    const parent = spans.find((p) => p.spanId === s.parentSpanId && p.traceId === s.traceId);
    if (!parent) break;
    chain.push((s = parent));
  }
  return chain;
}

describe('OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-tracing-'));
  let db: Awaited<ReturnType<typeof childDatabase>>;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let server: ReturnType<typeof startEntry>;
  let base: string;

  beforeAll(async () => {
    collector = await startCollector();
    // PostgreSQL runs: a copy of the test template (a fresh embedded database costs an initdb and every migration).
    db = await childDatabase(dataDir, 'tracing');
    server = startEntry({
      NODE_ENV: 'development',
      DATABASE_URL: '',
      ...db.env,
      SEED_ON_START: 'false',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      // JSON so that this test can read the export; operators get http/protobuf by default.
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_SERVICE_NAME: 'gateway-under-test',
    });
    const { port } = await server.logged((l) => typeof l.port === 'number');
    await server.logged((l) => l.msg === 'ready');
    base = `http://127.0.0.1:${port as number}`;
  }, budget(180_000)); // a cold start (TypeScript compiled on the fly; PGlite: a fresh embedded database, migrations) on a busy machine
  afterAll(async () => {
    if (server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await collector.close();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The db span of the request's trace, found by the request's own server span. */
  const traceOf = (target: string) =>
    collector.until(() => {
      const root = collector.spans.find(
        (s) => s.kind === SERVER && s.attributes.some((a) => (a.key === 'http.target' || a.key === 'url.path' ? a.value.stringValue === target : false)),
      );
      if (!root) return undefined;
      const trace = collector.spans.filter((s) => s.traceId === root.traceId);
      const db = trace.find((s) => s.name.startsWith('prisma:') && /db_query/.test(s.name));
      return db ? { root, trace, db } : undefined;
    });

  it.each([
    [
      'GraphQL',
      '/graphql',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query TracedCategories { publicCategories { id name } }' }),
      },
    ],
    ['REST', '/api/v1/public/categories', { method: 'GET' }],
  ])('follows one %s request in one trace: HTTP server span → GraphQL → Prisma → SQL', async (_face, target, init) => {
    expect((await fetch(`${base}${target}`, init)).status).toBe(200);
    const { root, trace, db } = await traceOf(target);

    const chain = ancestry(trace, db);
    expect(chain.at(-1)).toBe(root); // the SQL span's parents lead to the request's server span
    expect(new Set(chain.map((s) => s.traceId)).size).toBe(1);
    const names = chain.map((s) => s.name);
    expect(names.some((n) => n.startsWith('graphql.') || n.startsWith('query '))).toBe(true);
    expect(names.some((n) => n === 'prisma:client:operation')).toBe(true);
    expect(db.attributes.find((a) => a.key === 'db.query.text')?.value.stringValue).toMatch(/SELECT/i);
    // The request's log lines name the trace: from a log line to its trace and back.
    const completed = await server.logged((l) => l.msg === 'request completed' && (l.req as { url: string }).url === target);
    expect(completed.trace_id).toBe(root.traceId);
  });

  it('leaves probes untraced and keeps secrets out of spans (GraphQL literals, bearer tokens, SQL values)', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // Sent after the probe: once its spans are exported, the probe's would have been too.
    const secret = 'Sup3rSecretLiteral';
    const login = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer not.a.real-token' },
      body: JSON.stringify({ query: `mutation TracedLogin { login(email: "nobody@example.com", password: "${secret}") { accessToken } }` }),
    });
    expect(login.status).toBe(200);
    await collector.until(() => collector.spans.find((s) => s.name === 'mutation TracedLogin'));
    const exported = JSON.stringify(collector.spans);
    expect(exported).not.toContain('/healthz');
    expect(exported).not.toContain(secret);
    expect(exported).not.toContain('nobody@example.com');
    expect(exported).not.toContain('not.a.real-token');
  });
});

it('loads and patches nothing when OTEL_EXPORTER_OTLP_ENDPOINT is unset', () => {
  // A fresh node process: jest's own module registry would not show what a real start loads.
  const script =
    "require('./src/platform/tracing'); require('express'); process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((k) => /@opentelemetry|@prisma[\\\\/]instrumentation/.test(k)).length))";
  const env = { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' };
  const out = execFileSync(process.execPath, ['-r', fromRoot('scripts/ts-register.cjs'), '-e', script], { cwd: fromRoot('.'), env, encoding: 'utf8' });
  expect(JSON.parse(out)).toBe(0);
});
