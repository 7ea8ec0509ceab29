import { describe, expect, it } from 'vitest';
import { KeepAlive } from './keep-alive';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A KeepAlive over a stream whose controller only counts what is enqueued. */
function counted(ms: number) {
  const frames: string[] = [];
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const enqueue = controller.enqueue.bind(controller);
  controller.enqueue = (chunk?: Uint8Array) => {
    frames.push(new TextDecoder().decode(chunk));
    enqueue(chunk);
  };
  return { keepAlive: new KeepAlive(controller, ms), frames };
}

describe('KeepAlive', () => {
  it('sends a comment once a wait has lasted the interval, and again every interval while it lasts', async () => {
    const { keepAlive, frames } = counted(100);
    expect(await keepAlive.wait(sleep(350).then(() => 'events'))).toBe('events');
    // At 100, 200 and 300 ms; a timer that fires late under load may leave out the last one.
    expect(frames.length).toBeGreaterThanOrEqual(2);
    expect(frames.length).toBeLessThanOrEqual(3);
    expect(new Set(frames)).toEqual(new Set([': keep-alive\n\n']));
    keepAlive.stop();
  });

  it('sends nothing while reads keep being answered within the interval, however long the stream lasts', async () => {
    const { keepAlive, frames } = counted(150);
    for (let i = 0; i < 30; i++) await keepAlive.wait(sleep(10));
    // Between waits nobody is waiting: a timer that fires then sends nothing.
    await sleep(200);
    expect(frames).toEqual([]);
    keepAlive.stop();
  });

  it('counts the interval from the start of the current wait, not from the first', async () => {
    const { keepAlive, frames } = counted(150);
    await keepAlive.wait(sleep(10));
    await sleep(100);
    // The timer armed by the first wait fires 40 ms into this one: too early for a comment.
    await keepAlive.wait(sleep(80));
    expect(frames).toEqual([]);
    keepAlive.stop();
  });

  it('sends nothing once stopped', async () => {
    const { keepAlive, frames } = counted(50);
    keepAlive.stop();
    await keepAlive.wait(sleep(200));
    expect(frames).toEqual([]);
  });
});
