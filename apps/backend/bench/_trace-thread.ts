import { expose } from './threads';
import { now } from './stats';
expose({
  trace: async ({ url, body }: any) => {
    const t0 = now();
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const marks: string[] = [`headers@${(now() - t0).toFixed(1)}`];
    const reader = r.body!.getReader();
    const dec = new TextDecoder();
    let n = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const s = dec.decode(value);
      if (n++ < 5) marks.push(`${(now() - t0).toFixed(1)}:${s.slice(0, 30).replace(/\n/g, ' ')}`);
    }
    marks.push(`end@${(now() - t0).toFixed(1)} chunks=${n}`);
    return marks.join(' | ');
  },
});
