import type { LanguageModelMiddleware } from 'ai';

type WrapStream = NonNullable<LanguageModelMiddleware['wrapStream']>;
type StreamResult = Awaited<ReturnType<Parameters<WrapStream>[0]['doStream']>>;
type WrapStreamOptions = Parameters<WrapStream>[0];
/** One part of a model call's stream, as a middleware sees it (text deltas, tool calls, finish…). */
export type ModelStreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
export type ModelCallParams = WrapStreamOptions['params'];

/**
 * Per-part work on a model call's stream: the part to pass on (the same one, or a changed
 * copy), `null` to drop it, or a promise of either when the stage has to wait; a throw
 * errors the stream.
 */
export type PartStage = (part: ModelStreamPart) => ModelStreamPart | null | Promise<ModelStreamPart | null>;

/** A stage for one model call (made again for each call and each retry of it). */
export type PartStageFactory = (params: ModelCallParams) => PartStage;

/** The parts through each stage in order (asynchronous only from the first stage that waits). */
function runStages(stages: PartStage[], part: ModelStreamPart, from = 0): ModelStreamPart | null | Promise<ModelStreamPart | null> {
  let current: ModelStreamPart | null = part;
  for (let i = from; i < stages.length && current !== null; i++) {
    const out: ModelStreamPart | null | Promise<ModelStreamPart | null> = stages[i]!(current);
    if (out instanceof Promise) return out.then((next) => (next === null ? null : runStages(stages, next, i + 1)));
    current = out;
  }
  return current;
}

/**
 * A middleware that runs several stages over a model call's stream in one stream stage.
 * Each `TransformStream` is a hop every streamed word pays for in promise jobs and
 * allocations; Baton's own per-part work (reasoning timing, usage estimate, the tool-call
 * cap, time slices) is a few comparisons per part, so it shares hops instead of adding four.
 */
export function partStagesMiddleware(factories: PartStageFactory[]): Pick<LanguageModelMiddleware, 'wrapStream'> {
  return {
    wrapStream: async ({ doStream, params }) => {
      // Made before the call: a stage may time it from its start (a reasoning model's silence).
      const stages = factories.map((make) => make(params));
      const result = await doStream();
      const stream = result.stream.pipeThrough(
        new TransformStream<ModelStreamPart, ModelStreamPart>({
          transform(part, controller) {
            const out = runStages(stages, part);
            if (out instanceof Promise)
              return out.then((next) => {
                if (next !== null) controller.enqueue(next);
              });
            if (out !== null) controller.enqueue(out);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
