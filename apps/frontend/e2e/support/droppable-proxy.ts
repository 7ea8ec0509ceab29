import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP relay in front of the web app, for the tests of dropped streams: the page is loaded
 * through it, and `drop()` closes every connection it carries in the middle of whatever is
 * being sent — what the browser sees when a proxy gives up on a connection or the network
 * goes away (`ERR_INCOMPLETE_CHUNKED_ENCODING`, a fetch body that fails with "network
 * error"). Chromium's offline emulation does not do this: it leaves open responses alone.
 * While `cut()`, new connections are closed at once too ("Failed to fetch").
 */
export interface DroppableProxy {
  /** The web app's address through the relay, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  drop(): void;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startDroppableProxy(target: URL): Promise<DroppableProxy> {
  const open = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = connect(Number(target.port), target.hostname);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
    };
    open.add(client);
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const drop = () => {
    for (const socket of open) socket.destroy();
  };
  return {
    origin: `http://127.0.0.1:${port}`,
    drop,
    cut: () => {
      cut = true;
      drop();
    },
    restore: () => {
      cut = false;
    },
    close: () => {
      drop();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
