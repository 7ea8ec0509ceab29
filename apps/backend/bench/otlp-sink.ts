import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP/HTTP receiver that reads every export and drops it: tracing's cost is Baton's alone. */
export async function startOtlpSink(): Promise<{ url: string; receivedBytes: () => number; stop: () => Promise<void> }> {
  let received = 0;
  const sink = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
    receivedBytes: () => received,
    stop: () => new Promise<void>((resolve) => sink.close(() => resolve())),
  };
}
