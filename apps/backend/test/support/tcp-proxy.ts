import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a server (Postgres, say) that a test can cut and restore on the
 * same port: what a backend sees when its database goes away and comes back, without
 * touching the machine's shared server.
 */
export interface TcpProxy {
  port: number;
  /** Drops every connection and refuses new ones. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const serve = (port: number) => {
    const server = createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(port, '127.0.0.1');
    return server;
  };
  let server: Server | undefined = serve(0);
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const stop = async () => {
    if (!server) return;
    const closing = once(server, 'close');
    server.close();
    for (const s of sockets) s.destroy();
    await closing;
    server = undefined;
  };
  return {
    port,
    cut: stop,
    async restore() {
      if (server) return;
      server = serve(port);
      await once(server, 'listening');
    },
    close: stop,
  };
}
