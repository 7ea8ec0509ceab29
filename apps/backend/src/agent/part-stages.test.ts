import { describe, expect, it } from 'vitest';
import { type ModelCallParams, type ModelStreamPart, type PartStageFactory, partStagesMiddleware } from './part-stages';

const delta = (text: string): ModelStreamPart => ({ type: 'text-delta', id: 't', delta: text });

/** The parts `stages` make of `parts`, read to the end (or to the stream's error). */
async function through(factories: PartStageFactory[], parts: ModelStreamPart[]) {
  const middleware = partStagesMiddleware(factories);
  const stream = new ReadableStream<ModelStreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  const doStream = async () => ({ stream }) as never;
  const result = await middleware.wrapStream!({ doStream, doGenerate: (() => {}) as never, params: { prompt: [] } as ModelCallParams, model: {} as never });
  const out: string[] = [];
  let error: unknown;
  try {
    for await (const part of result.stream as ReadableStream<ModelStreamPart>) out.push(part.type === 'text-delta' ? part.delta : part.type);
  } catch (err) {
    error = err;
  }
  return { out, error };
}

const upper: PartStageFactory = () => (part) => (part.type === 'text-delta' ? { ...part, delta: part.delta.toUpperCase() } : part);
const dropB: PartStageFactory = () => (part) => (part.type === 'text-delta' && part.delta.toLowerCase() === 'b' ? null : part);
const slowly: PartStageFactory = () => (part) =>
  new Promise((resolve) => setTimeout(() => resolve(part), part.type === 'text-delta' && part.delta === 'a' ? 30 : 0));

describe('partStagesMiddleware', () => {
  it('runs every stage in order over each part, and drops what a stage drops', async () => {
    expect((await through([dropB, upper], [delta('a'), delta('b'), delta('c')])).out).toEqual(['A', 'C']);
    // The other order: the stage that drops sees what the first made of the part.
    expect((await through([upper, dropB], [delta('a'), delta('b'), delta('c')])).out).toEqual(['A', 'C']);
  });

  it('keeps the order of the parts when a stage waits for some of them', async () => {
    expect((await through([slowly, upper], [delta('a'), delta('b'), delta('c')])).out).toEqual(['A', 'B', 'C']);
  });

  it('ends the stream with the error a stage throws', async () => {
    const failing: PartStageFactory = () => (part) => {
      if (part.type === 'text-delta' && part.delta === 'b') throw new Error('too many');
      return part;
    };
    const { out, error } = await through([failing], [delta('a'), delta('b'), delta('c')]);
    expect(out).toEqual(['a']);
    expect((error as Error).message).toBe('too many');
  });

  it('makes each stage anew for each call', async () => {
    const made: number[] = [];
    const counting: PartStageFactory = () => {
      made.push(made.length);
      return (part) => part;
    };
    await through([counting], [delta('a')]);
    await through([counting], [delta('a')]);
    expect(made).toEqual([0, 1]);
  });
});
