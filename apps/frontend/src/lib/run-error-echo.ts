import { RUN_ERROR_PART } from '@baton/schemas';
import type { UIMessageChunk } from 'ai';

/**
 * Drops the protocol's `error` chunk that ends a failed answer after its `data-run-error`
 * part. The server sends both: the part for Baton's web app, which shows the reason in the
 * answer (live and after a reload alike), and the chunk for stock AI SDK clients. Let through,
 * the chunk would put the chat in its error state on top — a second notice, and no automatic
 * continuation. An `error` chunk without such a part (the stream could not be read) passes.
 */
export function dropRunErrorEcho(): TransformStream<UIMessageChunk, UIMessageChunk> {
  let failed = false;
  return new TransformStream({
    transform(chunk, controller) {
      if (chunk.type === RUN_ERROR_PART) failed = true;
      if (chunk.type === 'error' && failed) return;
      controller.enqueue(chunk);
    },
  });
}
