import { A2A_VERSION_HEADER, formatSSEErrorEvent, formatSSEEvent } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { type A2ARequestHandler, JsonRpcTransportHandler, ServerCallContext, validateVersion } from '@a2a-js/sdk/server';
import { DEFAULT_STREAM_KEEPALIVE_MS, KeepAlive } from '../http/keep-alive';
import { STREAM_HEADERS } from '../http/stream-headers';

const encoder = new TextEncoder();

type Envelope = { jsonrpc: string; id: string | number | null; result?: unknown; error?: unknown };

const isStream = (out: unknown): out is AsyncGenerator<Envelope, void, undefined> =>
  typeof (out as AsyncGenerator<Envelope> | undefined)?.[Symbol.asyncIterator] === 'function';

const idOf = (body: string): string | number | null => {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
};

/**
 * One JSON-RPC request to a published agent, by the SDK's own transport handlers (what its
 * Express `jsonRpcHandler` does, for Hono): A2A 1.0 (`SendMessage`, `GetTask`…) when the
 * request says `A2A-Version: 1.0`, else 0.3 (`message/send`, `tasks/get`…) through the SDK's
 * compat layer. A stream is SSE, with keep-alive comments while the agent is silent (its
 * sub-agents at work); a failure before its first event is a plain JSON-RPC error.
 */
export async function handleJsonRpc(request: Request, handler: A2ARequestHandler, keepAliveMs = DEFAULT_STREAM_KEEPALIVE_MS): Promise<Response> {
  const body = await request.text();
  const requestedVersion = request.headers.get(A2A_VERSION_HEADER) || undefined;
  const legacy = (requestedVersion ?? A2A_LEGACY_PROTOCOL_VERSION) === A2A_LEGACY_PROTOCOL_VERSION;
  const mapError = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
  const errorEnvelope = (err: unknown): Envelope => ({ jsonrpc: '2.0', id: idOf(body), error: mapError(err) });
  let out: Envelope | AsyncGenerator<Envelope, void, undefined>;
  try {
    const context = new ServerCallContext({ requestedVersion });
    validateVersion(context.requestedVersion, await handler.getAgentCard(), 'JSONRPC');
    const transport = legacy ? new LegacyJsonRpcTransportHandler(handler) : new JsonRpcTransportHandler(handler);
    out = await transport.handle(body, context);
  } catch (err) {
    return Response.json(errorEnvelope(err));
  }
  if (!isStream(out)) return Response.json(out);
  let first: IteratorResult<Envelope, void>;
  try {
    first = await out.next();
  } catch (err) {
    return Response.json(errorEnvelope(err));
  }
  return sseResponse(first, out, errorEnvelope, keepAliveMs);
}

function sseResponse(
  first: IteratorResult<Envelope, void>,
  rest: AsyncGenerator<Envelope, void, undefined>,
  errorEnvelope: (err: unknown) => Envelope,
  keepAliveMs: number,
): Response {
  let keepAlive: KeepAlive | undefined;
  let sentFirst = false;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        keepAlive = new KeepAlive(controller, keepAliveMs);
      },
      async pull(controller) {
        if (!sentFirst) {
          sentFirst = true;
          if (!first.done) return controller.enqueue(encoder.encode(formatSSEEvent(first.value)));
          return controller.close();
        }
        try {
          const next = await keepAlive!.wait(rest.next());
          if (next.done) {
            keepAlive!.stop();
            return controller.close();
          }
          controller.enqueue(encoder.encode(formatSSEEvent(next.value)));
        } catch (err) {
          keepAlive!.stop();
          controller.enqueue(encoder.encode(formatSSEErrorEvent(errorEnvelope(err))));
          controller.close();
        }
      },
      // The client went away: the generator's `finally` stops reading the run (which goes on),
      // once the read in flight returns (an async generator queues the return behind it).
      cancel: () => {
        keepAlive?.stop();
        void rest.return(undefined).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', ...STREAM_HEADERS, 'x-accel-buffering': 'no' } });
}
