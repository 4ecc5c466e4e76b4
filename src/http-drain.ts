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

/**
 * Graceful stop of an HTTP server: stop accepting, answer every request already received (with
 * `Connection: close`), close idle keep-alive connections, then resolve.
 *
 * Written here because Node's `server.close()` (and the stoppable/http-terminator style drains,
 * Apollo's included) closes every connection that has no request *in progress*, and that includes
 * connections accepted moments ago whose request bytes are waiting unread in the socket: under load
 * those clients got ECONNRESET for requests they had fully sent. Here a new connection is given time
 * to deliver its first request, which is then served.
 */
export class HttpDrainer {
  private readonly connections = new Map<Socket, Connection>();
  private readonly responses = new Set<http.ServerResponse>();
  private draining = false;

  constructor(private readonly server: http.Server) {
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, { active: 0, served: 0 });
      socket.once('close', () => this.connections.delete(socket));
    });
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
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

  /** Resolves once every connection is closed; connections still open after `timeoutMs` are cut. */
  async drain(timeoutMs: number): Promise<void> {
    this.draining = true;
    if (!this.server.listening) return;
    // Connections the kernel has already accepted are taken by libuv in the next turn of the loop.
    await new Promise((resolve) => setImmediate(resolve));
    // net.Server's close stops listening without http.Server's closeIdleConnections() (see above).
    const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(this.server, () => resolve()));
    for (const res of this.responses) if (!res.headersSent) res.setHeader('Connection', 'close');
    for (const [socket, conn] of this.connections) {
      if (conn.active > 0) continue;
      if (conn.served > 0) socket.destroy();
      else setTimeout(() => this.connections.get(socket)?.served === 0 && this.connections.get(socket)?.active === 0 && socket.destroy(), FIRST_REQUEST_GRACE_MS).unref();
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([closed, deadline]);
    clearTimeout(timer);
    for (const socket of this.connections.keys()) socket.destroy();
    await closed;
  }
}
