import type http from 'node:http';

/**
 * The side of bench/run.ts's small IPC protocol that a forked comparison server speaks: listen on
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
