import type http from 'node:http';
import net, { type Socket } from 'node:net';

interface Connection {
  /** Responses under way on this connection. */
  active: number;
  /** Requests answered on it so far (0: a new connection whose first request may still be arriving). */
  served: number;
}

/** How long a new connection may take, once draining, to deliver its first request. */
const FIRST_REQUEST_GRACE_MS = 2000;
/** The listener closes once no request is in flight and no connection arrived for this long. */
const QUIET_MS = 100;

/**
 * Graceful stop of an HTTP server: answer every request already received (with `Connection: close`),
 * close idle keep-alive connections, stop listening once it is quiet, then resolve.
 *
 * Written here because Node's `server.close()` (and the stoppable/http-terminator style drains,
 * Apollo's included) closes every connection that has no request *in progress*, which includes
 * connections accepted moments ago whose request bytes are still unread; and closing the listening
 * socket at once resets connections still waiting in the kernel's accept queue, which a busy event
 * loop takes in slowly. Under load those clients got ECONNRESET for requests they had fully sent.
 * Here the listener stays open (every connection it still hands over is served and closed) until
 * nothing is in flight and nothing new arrived for a moment, and a new connection is given time to
 * deliver its first request.
 */
export class HttpDrainer {
  private readonly connections = new Map<Socket, Connection>();
  private readonly responses = new Set<http.ServerResponse>();
  private readonly stats = { cut: 0, silent: 0 };
  private draining = false;
  private accepted = 0;

  constructor(private readonly server: http.Server) {
    server.on('connection', (socket: Socket) => {
      this.accepted++;
      this.connections.set(socket, { active: 0, served: 0 });
      socket.once('close', () => this.connections.delete(socket));
      if (this.draining) this.expectFirstRequest(socket);
    });
    // Before the app's own listener (http.createServer(app) registered it first): express answers some
    // requests synchronously (/readyz), and a header set after that throws ERR_HTTP_HEADERS_SENT.
    server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const conn = this.connections.get(req.socket);
      if (conn) conn.active++;
      this.responses.add(res);
      if (this.draining) res.setHeader('Connection', 'close');
      res.once('close', () => {
        this.responses.delete(res);
        if (!conn) return;
        conn.active--;
        conn.served++;
        // Headers sent before the drain began still said keep-alive: end the connection ourselves.
        if (this.draining && conn.active === 0) req.socket.end();
      });
    });
  }

  /** An upgraded connection (WebSocket) is no longer HTTP: its own server closes it (src/graphql/subscriptions.ts). */
  release(socket: Socket): void {
    this.connections.delete(socket);
  }

  /**
   * Resolves once every connection is closed; connections still open after `timeoutMs` are cut.
   * Returns how many were cut, and how many new connections never sent a request.
   */
  async drain(timeoutMs: number): Promise<{ cut: number; silent: number }> {
    this.draining = true;
    if (!this.server.listening) return this.stats;
    const deadline = Date.now() + timeoutMs;
    for (const res of this.responses) if (!res.headersSent) res.setHeader('Connection', 'close');
    for (const [socket, conn] of this.connections) {
      if (conn.active > 0) continue;
      if (conn.served > 0) socket.end();
      else this.expectFirstRequest(socket);
    }
    await this.quiet(deadline);
    // net.Server's close stops listening without http.Server's closeIdleConnections() (see above).
    const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(this.server, () => resolve()));
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), Math.max(deadline - Date.now(), 0))));
    if ((await Promise.race([closed, expired])) === 'expired') {
      this.stats.cut = this.connections.size;
      for (const socket of this.connections.keys()) socket.destroy();
      await closed;
    }
    clearTimeout(timer);
    return this.stats;
  }

  /** Waits (bounded) until no response is under way and no connection arrived for QUIET_MS. */
  private async quiet(deadline: number): Promise<void> {
    for (let seen = -1; (seen !== this.accepted || this.responses.size > 0) && Date.now() < deadline;) {
      seen = this.accepted;
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
      // A poll phase must pass after the timer, or a busy loop never looked at the listening socket.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private expectFirstRequest(socket: Socket): void {
    setTimeout(() => {
      const conn = this.connections.get(socket);
      if (!conn || conn.served > 0 || conn.active > 0) return;
      this.stats.silent++;
      socket.destroy();
    }, FIRST_REQUEST_GRACE_MS).unref();
  }
}
