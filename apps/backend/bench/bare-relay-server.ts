// A reference for Baton's CPU per token: the least a relay of the same streams can do in
// Node. It answers Baton's chat request shape by calling the model with fetch (as the AI SDK
// does) and writes each word on as a UI message stream `text-delta`: the same sockets, HTTP
// and JSON per event as Baton, and nothing else (no AI SDK, no database, no run log).
// Usage: node --import tsx bench/bare-relay-server.ts <model origin>; prints "listening on <port>".
import { createServer } from 'node:http';

const modelOrigin = process.argv[2];
if (!modelOrigin) throw new Error('usage: bare-relay-server.ts <model origin>');

const server = createServer(async (req, res) => {
  try {
    let body = '';
    for await (const chunk of req) body += chunk;
    const text = JSON.parse(body).message.parts[0].text as string;
    const model = await fetch(`${modelOrigin}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'baton-demo', stream: true, messages: [{ role: 'user', content: text }] }),
    });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const decoder = new TextDecoder();
    let buffer = '';
    let seq = 0;
    for await (const bytes of model.body!) {
      buffer += decoder.decode(bytes, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer.slice(buffer.indexOf('data: ') + 6, end);
        buffer = buffer.slice(end + 2);
        if (data === '[DONE]') continue;
        const delta = JSON.parse(data).choices[0]?.delta?.content;
        if (delta) res.write(`id: ${seq++}\ndata: ${JSON.stringify({ type: 'text-delta', id: 'text-1', delta })}\n\n`);
      }
    }
    res.end('data: [DONE]\n\n');
  } catch (err) {
    res.destroy(err as Error);
  }
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on ${typeof address === 'object' && address ? address.port : '?'}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
