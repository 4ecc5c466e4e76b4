import type { ChildProcess } from 'node:child_process';
import type http from 'node:http';

/**
 * The small IPC protocol between a benchmark and the servers it forks. The server's side: listen on
 * 127.0.0.1 at a free port and report `{ port }`, answer `'queries'` with the SQL statements sent
 * so far, and on SIGTERM, SIGINT or the parent's disconnect close the server and its connections,
 * release what it holds, then exit 0.
 */
export function serveForked(server: http.Server, queriesSent: () => number, release: () => Promise<unknown>): void {
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void Promise.resolve()
      .then(release)
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  process.on('message', (m) => m === 'queries' && process.send?.({ queries: queriesSent() }));
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('unexpected server address');
    process.send?.({ port: address.port });
  });
}

/** How long a forked server may take to report its port. */
const START_TIMEOUT_MS = 60_000;

/**
 * The parent's side: the port `child` reports once it listens. Rejects if it exits or fails first,
 * or reports nothing within START_TIMEOUT_MS. Its 'error' listener stays for the child's whole life
 * (once started, a failure rejects a settled promise, which does nothing).
 */
export function forkedPort(child: ChildProcess, name: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS).unref();
    const settle = (port: number) => (clearTimeout(timer), resolve(port));
    child.on('error', reject);
    child.once('exit', (code) => reject(new Error(`${name} exited during start-up (exit ${code})`)));
    const onMessage = (m: unknown) => {
      const port = (m as { port?: unknown } | null)?.port;
      if (typeof port === 'number') {
        child.off('message', onMessage);
        settle(port);
      }
    };
    child.on('message', onMessage);
  });
}
