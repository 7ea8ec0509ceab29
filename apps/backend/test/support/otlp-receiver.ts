import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as the receiver got it: ids in hex, attributes flattened to plain values. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  attributes: Record<string, string | number | boolean>;
  service: string;
}

export interface OtlpReceiver {
  /** The OTLP base URL (OTEL_EXPORTER_OTLP_ENDPOINT): spans are POSTed to `<url>/v1/traces`. */
  url: string;
  spans: ReceivedSpan[];
  /** The Content-Type of each export request received. */
  contentTypes: string[];
  close(): Promise<void>;
}

/**
 * A collector in miniature: accepts OTLP/HTTP trace exports, JSON (`http/json`) or protobuf
 * (`http/protobuf`, decoded below from the OTLP trace message layout), and keeps the spans.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const type = req.headers['content-type'] ?? '';
      contentTypes.push(type);
      const body = Buffer.concat(chunks);
      if (type.startsWith('application/json')) {
        spans.push(...fromJson(JSON.parse(body.toString('utf8'))));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        spans.push(...fromProtobuf(body));
        // An empty ExportTraceServiceResponse.
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type JsonValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number; arrayValue?: { values?: JsonValue[] } };
type JsonKeyValue = { key: string; value: JsonValue };

function jsonAttributes(list: JsonKeyValue[] | undefined) {
  const out: ReceivedSpan['attributes'] = {};
  for (const { key, value } of list ?? []) {
    // An array (finish reasons, …) as its values joined by commas.
    const list = value.arrayValue?.values?.map((x) => x.stringValue ?? String(x.intValue ?? x.doubleValue ?? x.boolValue)).join(',');
    const v = list ?? value.stringValue ?? value.boolValue ?? value.doubleValue ?? value.intValue;
    if (v !== undefined) out[key] = typeof v === 'string' && value.intValue !== undefined ? Number(v) : v;
  }
  return out;
}

function fromJson(body: any): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((rs: any) => {
    const service = String(jsonAttributes(rs.resource?.attributes)['service.name'] ?? '');
    return (rs.scopeSpans ?? []).flatMap((ss: any) =>
      (ss.spans ?? []).map((s: any) => ({
        name: s.name,
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? '',
        attributes: jsonAttributes(s.attributes),
        service,
      })),
    );
  });
}

/** The protobuf wire format's fields of one message: number → values (bytes for length-delimited, numbers otherwise). */
function fields(buf: Buffer): Map<number, (Buffer | number)[]> {
  const out = new Map<number, (Buffer | number)[]>();
  let pos = 0;
  const varint = () => {
    let result = 0;
    let shift = 1;
    for (;;) {
      const byte = buf[pos++]!;
      result += (byte & 0x7f) * shift;
      if (byte < 0x80) return result;
      shift *= 128;
    }
  };
  while (pos < buf.length) {
    const key = varint();
    const wire = key % 8;
    let value: Buffer | number;
    if (wire === 0) value = varint();
    else if (wire === 2) {
      const length = varint();
      value = buf.subarray(pos, pos + length);
      pos += length;
    } else if (wire === 1) {
      value = buf.readDoubleLE(pos);
      pos += 8;
    } else {
      value = buf.readUInt32LE(pos);
      pos += 4;
    }
    const n = Math.floor(key / 8);
    out.set(n, [...(out.get(n) ?? []), value]);
  }
  return out;
}

const bytes = (m: Map<number, (Buffer | number)[]>, n: number) => (m.get(n)?.[0] as Buffer | undefined) ?? Buffer.alloc(0);

/** KeyValue { key = 1; AnyValue value = 2 { string_value = 1; bool_value = 2; int_value = 3; double_value = 4 } }. */
function protobufAttributes(list: (Buffer | number)[] | undefined) {
  const out: ReceivedSpan['attributes'] = {};
  for (const kv of list ?? []) {
    const f = fields(kv as Buffer);
    const value = fields(bytes(f, 2));
    const key = bytes(f, 1).toString('utf8');
    if (value.has(1)) out[key] = bytes(value, 1).toString('utf8');
    else if (value.has(2)) out[key] = value.get(2)![0] === 1;
    else if (value.has(3)) out[key] = value.get(3)![0] as number;
    else if (value.has(4)) out[key] = value.get(4)![0] as number;
  }
  return out;
}

/** ExportTraceServiceRequest { ResourceSpans resource_spans = 1 { Resource resource = 1; ScopeSpans scope_spans = 2 { Span spans = 2 } } }. */
function fromProtobuf(body: Buffer): ReceivedSpan[] {
  return (fields(body).get(1) ?? []).flatMap((rsBuf) => {
    const rs = fields(rsBuf as Buffer);
    const service = String(protobufAttributes(fields(bytes(rs, 1)).get(1))['service.name'] ?? '');
    return (rs.get(2) ?? []).flatMap((ssBuf) =>
      (fields(ssBuf as Buffer).get(2) ?? []).map((spanBuf) => {
        // Span { trace_id = 1; span_id = 2; parent_span_id = 4; name = 5; attributes = 9 }.
        const s = fields(spanBuf as Buffer);
        return {
          name: bytes(s, 5).toString('utf8'),
          traceId: bytes(s, 1).toString('hex'),
          spanId: bytes(s, 2).toString('hex'),
          parentSpanId: bytes(s, 4).toString('hex'),
          attributes: protobufAttributes(s.get(9)),
          service,
        };
      }),
    );
  });
}

/** The spans above `span` in its trace, nearest first (as far as the receiver has them). */
export function ancestorsOf(spans: ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (let at = span; at.parentSpanId; ) {
    const parent = spans.find((s) => s.traceId === at.traceId && s.spanId === at.parentSpanId);
    if (!parent) break;
    out.push(parent);
    at = parent;
  }
  return out;
}

/** The run span of a chat (the first run's, when it has several). */
export const runSpanOf = (spans: ReceivedSpan[], chatId: string) => spans.find((s) => s.name === 'run' && s.attributes['baton.chat.id'] === chatId);
