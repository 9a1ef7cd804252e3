import { once } from "node:events";
import net from "node:net";

type Link = { client: net.Socket; upstream: net.Socket | null };

/**
 * A TCP proxy between the server and PostgreSQL that a test can break on purpose:
 * - `cut()`: the database is gone (connections refused, every open one closed);
 * - `blackhole()`: the network stops delivering (connections are accepted, nothing flows);
 * - `open()` / `heal()`: back to forwarding, on the same port.
 */
export class DatabaseProxy {
  private server: net.Server | null = null;
  private links = new Set<Link>();
  private holding = false;
  port = 0;
  /** Bytes sent on to the database so far (a test cuts in the middle of a large write). */
  bytesUp = 0;

  constructor(
    private readonly target: { host: string; port: number },
    private readonly log: (line: string) => void = () => {},
  ) {}

  /** Listens (on the port it had before, if any) and forwards. */
  async open() {
    this.holding = false;
    const server = net.createServer((client) => this.accept(client));
    server.listen(this.port, "127.0.0.1");
    await once(server, "listening");
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and destroys every proxied connection, both sides. */
  async cut() {
    const count = await this.close();
    this.log(`proxy: cut, ${count} connections destroyed`);
  }

  /** Like `cut`, quietly; resolves to how many connections it destroyed. */
  async close() {
    const server = this.server;
    this.server = null;
    const closed = server ? new Promise((resolve) => server.close(resolve)) : null;
    const count = this.links.size;
    for (const link of this.links) {
      link.client.destroy();
      link.upstream?.destroy();
    }
    this.links.clear();
    await closed;
    return count;
  }

  /** Keeps accepting but forwards nothing either way: open connections and new ones hang. */
  blackhole() {
    this.holding = true;
    for (const link of this.links) this.hold(link);
    this.log(`proxy: blackhole, ${this.links.size} connections held`);
  }

  /** Forwards again; what was held flows on (connections the server gave up on are closed). */
  heal() {
    this.holding = false;
    for (const link of this.links) this.forward(link);
    this.log(`proxy: healed, ${this.links.size} connections forwarding`);
  }

  private accept(client: net.Socket) {
    const link: Link = { client, upstream: null };
    this.links.add(link);
    const drop = () => {
      client.destroy();
      link.upstream?.destroy();
      this.links.delete(link);
    };
    client.on("error", drop);
    client.on("close", drop);
    if (this.holding) client.pause();
    else this.forward(link);
  }

  private forward(link: Link) {
    if (!link.upstream) {
      const upstream = net.connect(this.target.port, this.target.host);
      const drop = () => {
        upstream.destroy();
        link.client.destroy();
        this.links.delete(link);
      };
      upstream.on("error", drop);
      upstream.on("close", drop);
      link.upstream = upstream;
      link.client.on("data", (chunk: Buffer) => (this.bytesUp += chunk.length));
    }
    link.client.pipe(link.upstream);
    link.upstream.pipe(link.client);
    link.client.resume();
    link.upstream.resume();
  }

  private hold(link: Link) {
    link.client.unpipe();
    link.upstream?.unpipe();
    link.client.pause();
    link.upstream?.pause();
  }
}
