import { describe, expect, it } from 'vitest';
import { aiTelemetry, startTracing, traceparentOf, tracingEnabled } from './tracing';

describe('startTracing', () => {
  it('starts nothing without an OTLP endpoint (or with the SDK disabled): no-op spans, the AI SDK telemetry off', async () => {
    expect(await startTracing({})).toBeUndefined();
    expect(await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(tracingEnabled()).toBe(false);
    expect(aiTelemetry('baton.turn')).toEqual({ isEnabled: false });
    expect(traceparentOf()).toBeNull();
  });

  it('refuses a protocol it cannot speak, saying which it can', async () => {
    await expect(startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).rejects.toThrow(
      /http\/protobuf or http\/json \(grpc is not supported\)/,
    );
    expect(tracingEnabled()).toBe(false);
  });
});
