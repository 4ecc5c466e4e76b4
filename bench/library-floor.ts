/**
 * What the libraries under the gateway's two faces cost per request before any of its own code runs
 * (docs/benchmarks.md, "What the libraries cost before our code"): a bare node:http server, Express 5
 * with its JSON body parser, and Apollo Server 5 on Express 5 (@as-integrations/express5) with its
 * defaults. Each answers `POST /graphql` with `{ distributions { total } }`, Apollo from its document
 * cache after the first request (as the gateway answers a document it has seen). Each server runs in
 * a process of its own with the gateway's node flags and is measured alone at 10 connections (the
 * bench's second count); its CPU per request is the process's user + system time over the requests
 * it answered.
 *
 *   npm run build:bench && node dist-bench/bench/library-floor.js [--duration S] [--rounds R]
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import autocannon from 'autocannon';
import express from 'express';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { present } from '../src/platform/invariant';
import { integerOption, parseCommandLine, runCommand } from '../scripts/command';
import { onContainerRuntime } from './container-runtime';
import { forkedPort, serveForked } from './forked-server';
import { cpuMs, productionNodeFlags } from './server-process';

const USAGE = 'Usage: npm run build:bench && node dist-bench/bench/library-floor.js [--duration S] [--rounds R]';
const CONNECTIONS = 10;
const WARM_UP_SECONDS = 2;
const QUERY = '{ distributions { total } }';
const ANSWER = { data: { distributions: { total: 0 } } };

const SERVERS = {
  'node:http': async () =>
    http.createServer((req, res) => {
      req.on('error', () => res.destroy());
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER)));
    }),
  'Express 5 + express.json()': async () => {
    const app = express();
    app.post('/graphql', express.json(), (_req, res) => void res.json(ANSWER));
    return http.createServer(app);
  },
  'Apollo Server 5 on Express 5': async () => {
    const apollo = new ApolloServer({
      typeDefs: 'type Distributions { total: Int! } type Query { distributions: Distributions! }',
      resolvers: { Query: { distributions: () => ANSWER.data.distributions } },
    });
    await apollo.start();
    const app = express();
    app.use('/graphql', express.json(), expressMiddleware(apollo));
    return http.createServer(app);
  },
} satisfies Record<string, () => Promise<http.Server>>;

type Kind = keyof typeof SERVERS;
const SERVER_ENV = 'LIBRARY_FLOOR_SERVER';

/** In a forked child: the one server named by SERVER_ENV, speaking bench/forked-server.ts's protocol. */
async function serve(kind: Kind): Promise<void> {
  serveForked(
    await SERVERS[kind](),
    () => 0,
    async () => undefined,
  );
}

async function start(kind: Kind, flags: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(__filename, [], { env: { ...process.env, NODE_ENV: 'production', [SERVER_ENV]: kind }, execArgv: flags, stdio: 'inherit' });
  const port = await forkedPort(child, kind);
  return { child, port };
}

async function measure(kind: Kind, flags: string[], seconds: number): Promise<string> {
  const { child, port } = await start(kind, flags);
  try {
    const options = {
      url: `http://127.0.0.1:${port}/graphql`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: QUERY }),
      connections: CONNECTIONS,
      timeout: 10,
    };
    await autocannon({ ...options, duration: WARM_UP_SECONDS });
    const pid = present(child.pid, 'the server process id');
    const before = await cpuMs(pid);
    const result = await autocannon({ ...options, duration: seconds });
    const used = (await cpuMs(pid)) - before;
    if (result.non2xx || result.errors) throw new Error(`${kind}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    return `${(used / result.requests.total).toFixed(3)} ms CPU/req  ${Math.round(result.requests.average)} req/s  ${kind}`;
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

async function main(): Promise<void> {
  const kind = process.env[SERVER_ENV];
  if (kind) return serve(kind as Kind);
  const rerun = await onContainerRuntime();
  if (rerun !== null) process.exit(rerun);
  const values = parseCommandLine({ duration: { type: 'string' }, rounds: { type: 'string' } }, USAGE);
  const seconds = integerOption('duration', values.duration, 1) ?? 8;
  const rounds = integerOption('rounds', values.rounds, 1) ?? 2;
  const flags = await productionNodeFlags();
  console.log(`Node ${process.version}, flags ${flags.join(' ')}; ${CONNECTIONS} connections, ${seconds} s a server:`);
  for (let round = 1; round <= rounds; round++) {
    for (const name of Object.keys(SERVERS) as Kind[]) console.log(`  round ${round}  ${await measure(name, flags, seconds)}`);
  }
}

runCommand(main);
