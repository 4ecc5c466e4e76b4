import net from 'node:net';

/**
 * A TCP proxy between the gateway and PostgreSQL that a test can partition: while blackholed it
 * accepts connections and keeps every socket open but forwards nothing (in either direction), as a
 * network partition looks to both ends. `restore()` forwards again; connections opened during the
 * partition are dropped then (they never reached the server). `refuse()` is the server going away
 * instead: every connection is closed and new ones are closed at once, until `restore()`. `down()` is
 * its host going away: nothing listens any more (connections are refused: ECONNREFUSED) until `restore()`.
 */
export class FaultProxy {
  private readonly server = net.createServer((client) => this.accept(client));
  private readonly sockets = new Set<net.Socket>();
  private held = new Set<net.Socket>();
  private blackholed = false;
  private refusing = false;
  private listenPort = 0;

  private constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** Starts a proxy to the server of `url`; returns it and the same URL pointed at the proxy. */
  static async start(url: string): Promise<{ proxy: FaultProxy; url: string }> {
    const target = new URL(url);
    const proxy = new FaultProxy(target.hostname, Number(target.port || 5432));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.listenPort = (proxy.server.address() as net.AddressInfo).port;
    const via = new URL(url);
    via.hostname = '127.0.0.1';
    via.port = String(proxy.listenPort);
    return { proxy, url: via.toString() };
  }

  blackhole(): void {
    this.blackholed = true;
  }

  refuse(): void {
    this.refusing = true;
    for (const socket of this.sockets) socket.destroy();
  }

  async down(): Promise<void> {
    this.refuse();
    await new Promise((resolve) => this.server.close(resolve));
  }

  restore(): void {
    if (!this.server.listening) this.server.listen(this.listenPort, '127.0.0.1');
    this.blackholed = false;
    this.refusing = false;
    for (const socket of this.held) socket.destroy();
    this.held = new Set();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (this.server.listening) await new Promise((resolve) => this.server.close(resolve));
  }

  private track(socket: net.Socket): net.Socket {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => this.sockets.delete(socket));
    return socket;
  }

  private accept(client: net.Socket): void {
    this.track(client);
    if (this.refusing) {
      client.destroy();
      return;
    }
    if (this.blackholed) {
      this.held.add(client);
      return;
    }
    const upstream = this.track(net.connect(this.port, this.host));
    client.on('data', (chunk) => void (this.blackholed || upstream.write(chunk)));
    upstream.on('data', (chunk) => void (this.blackholed || client.write(chunk)));
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  }
}
