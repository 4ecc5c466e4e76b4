import net from 'node:net';
import { statementNames } from '../../src/db/pg-pool';

/** Whether a chunk the client sent is the one to cut after; `seen` is per connection, for the matcher's own notes. */
export type CutMatch = (chunk: Buffer, seen: Record<string, unknown>) => boolean;

/** Names of prepared statements that insert into a table: a connection parses a text once, then only binds its name. */
const insertNames = new Map<string, Set<string>>();

/** A PostgreSQL session's chunk that runs `INSERT INTO table` (by its text, or the name it was prepared under). */
export const insertsInto =
  (table: string): CutMatch =>
  (chunk) => {
    const text = chunk.toString('latin1');
    const names = insertNames.get(table) ?? new Set<string>();
    insertNames.set(table, names);
    // Parse messages: 'P', length, the statement's name (p + 27 base64url characters, see statementNames), its text.
    for (const m of text.matchAll(/(p[\w-]{27})\0[^\0]*INSERT INTO "?(?:public"\.")?(\w+)/g)) if (m[2] === table) names.add(m[1]);
    return text.includes(`INSERT INTO ${table}`) || [...names].some((name) => text.includes(name));
  };

/** The COMMIT of a session that inserted into `table` (other sessions' commits pass). */
export const commitAfterInsertInto = (table: string): CutMatch => {
  const inserts = insertsInto(table);
  const commitName = statementNames()({ sql: 'COMMIT' })!;
  return (chunk, seen) => {
    if (inserts(chunk, seen)) seen.wrote = true;
    const text = chunk.toString('latin1');
    return seen.wrote === true && (text.includes('COMMIT') || text.includes(commitName));
  };
};

/**
 * A TCP proxy between the gateway and PostgreSQL that a test can partition: while blackholed it
 * accepts connections and keeps every socket open but forwards nothing (in either direction), as a
 * network partition looks to both ends. `restore()` forwards again; connections opened during the
 * partition are dropped then (they never reached the server). `refuse()` is the server going away
 * instead: every connection is closed and new ones are closed at once, until `restore()`. `down()` is
 * its host going away: nothing listens any more (connections are refused: ECONNREFUSED) until `restore()`.
 * `cutAfter()` loses one answer: the next message that matches reaches the server, and the
 * connection is reset under the client before the server's answer can come back.
 */
export class FaultProxy {
  private readonly server = net.createServer((client) => this.accept(client));
  private readonly sockets = new Set<net.Socket>();
  private held = new Set<net.Socket>();
  private blackholed = false;
  private refusing = false;
  private cut: { match: CutMatch; done: () => void } | undefined;
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

  /**
   * Arms a one-shot cut: the first client chunk that `match`es (e.g. a COMMIT) is forwarded, then
   * that client connection is reset; the server's connection stays open until it has answered (so
   * it did carry the message out) and is closed then. Resolves once the server has answered.
   * `match` also gets an object of the connection's own, to remember what it sent before.
   */
  cutAfter(match: CutMatch): Promise<void> {
    return new Promise((done) => (this.cut = { match, done }));
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
    let severed: (() => void) | undefined;
    const seen: Record<string, unknown> = {};
    client.on('data', (chunk) => {
      if (this.blackholed || severed) return;
      upstream.write(chunk);
      if (!this.cut?.match(chunk, seen)) return;
      severed = this.cut.done;
      this.cut = undefined;
      client.destroy();
    });
    upstream.on('data', (chunk) => {
      if (severed) {
        // The server answered the message the client will never hear back about.
        upstream.destroy();
        return severed();
      }
      if (!this.blackholed) client.write(chunk);
    });
    client.once('close', () => severed || upstream.destroy());
    upstream.once('close', () => client.destroy());
  }
}
