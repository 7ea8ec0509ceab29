import {
  context,
  type Context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type SpanOptions,
  SpanStatusCode,
  type Tracer,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import type { Telemetry } from 'ai';
import { log } from './logger';

/*
 * OpenTelemetry traces, exported over OTLP only when the operator names a collector
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`; the other standard
 * `OTEL_*` variables apply). Unset, no SDK is loaded: the API's tracer is a no-op and the AI
 * SDK's telemetry is switched off per call, so tracing costs nothing.
 *
 * A delegation tree is one trace: every run of a sub-chat is a child of the parent's
 * `newTask` call, whose context is stored with the sub-chat (`chat.trace_parent`) and, in
 * the browser flow, with the call (`tool_call_trace`) — so it holds across requests and replicas.
 */

let enabled = false;
let recordContent = false;
// The started provider's tracers (the API's no-op one until then).
let tracer: Tracer = trace.getTracer('baton-backend');
let aiIntegration: Telemetry | undefined;

export interface Tracing {
  /** Sends the spans ended so far (tests, to read what was sent). */
  flush(): Promise<void>;
  /** Sends what is still buffered and stops. */
  shutdown(): Promise<void>;
}

type Env = Record<string, string | undefined>;

/** Starts the SDK when the environment names an OTLP endpoint; called once at start-up, before the app is built. */
export async function startTracing(env: Env): Promise<Tracing | undefined> {
  const endpoint = tracesEndpoint(env);
  if (!endpoint || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return undefined;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim().toLowerCase();
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (grpc is not supported), got "${protocol}"`);
  }
  // Loaded only here: a backend without a collector never loads the SDK.
  const [{ NodeTracerProvider, BatchSpanProcessor }, resources, { ATTR_SERVICE_NAME }, exporterModule, { OpenTelemetry }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
    protocol === 'http/json' ? import('@opentelemetry/exporter-trace-otlp-http') : import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@ai-sdk/otel'),
  ]);
  // OTEL_RESOURCE_ATTRIBUTES (read by the env detector); the service's name from OTEL_SERVICE_NAME, then those, then Baton's.
  const detected = resources.detectResources({ detectors: [resources.envDetector] });
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || String(detected.attributes[ATTR_SERVICE_NAME] ?? '') || 'baton-backend';
  const resource = resources
    .defaultResource()
    .merge(detected)
    .merge(resources.resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }));
  // Headers, timeout and compression come from the standard variables, read by the exporter itself.
  const exporter = new exporterModule.OTLPTraceExporter({ url: endpoint });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  // The global provider, AsyncLocalStorage context and W3C trace-context propagation.
  provider.register();
  tracer = provider.getTracer('baton-backend');
  // The AI SDK's spans (GenAI semantic conventions): invoke_agent, step, chat {model}, execute_tool {tool}.
  // Given with each call (aiTelemetry), not registered globally: a restart (tests) replaces it.
  aiIntegration = new OpenTelemetry({ tracer: provider.getTracer('ai') });
  enabled = true;
  recordContent = env.BATON_TRACE_CONTENT?.trim().toLowerCase() === 'true';
  log.info({ endpoint: new URL(endpoint).origin, protocol, content: recordContent }, 'tracing: exporting spans over OTLP');
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      enabled = false;
      await provider.shutdown();
      // The API's globals go back to no-ops, so tracing can be started again (tests do).
      trace.disable();
      context.disable();
      propagation.disable();
      tracer = trace.getTracer('baton-backend');
    },
  };
}

/** The signal-specific endpoint is used as given; the general one gets `/v1/traces` appended (the OTLP spec). */
function tracesEndpoint(env: Env): string | undefined {
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (specific) return specific;
  const general = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return general ? `${general.replace(/\/+$/, '')}/v1/traces` : undefined;
}

export const tracingEnabled = () => enabled;

/** A span of Baton's own (a request, a run, a browser's tool call); the caller ends it. */
export const startSpan = (name: string, options: SpanOptions, parent?: Context): Span => tracer.startSpan(name, options, parent);

/**
 * The AI SDK's `telemetry` option for one model call: off without a collector; prompts and
 * outputs only with `BATON_TRACE_CONTENT=true` (they are the users' conversations).
 */
export function aiTelemetry(functionId: string) {
  if (!enabled || !aiIntegration) return { isEnabled: false };
  return { isEnabled: true, functionId, recordInputs: recordContent, recordOutputs: recordContent, integrations: [aiIntegration] };
}

/** The W3C `traceparent` of a context's span (the active one by default): what is stored to continue a trace elsewhere. */
export function traceparentOf(ctx: Context = context.active()): string | null {
  const span = enabled ? trace.getSpanContext(ctx) : undefined;
  if (!span || !trace.isSpanContextValid(span)) return null;
  return `00-${span.traceId}-${span.spanId}-0${span.traceFlags & TraceFlags.SAMPLED}`;
}

/** A stored `traceparent` as a parent context (none: the active context). */
export function contextOf(traceparent: string | null | undefined): Context {
  if (!traceparent) return context.active();
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** Runs `work` inside `span`, which it must end itself (a run's span outlives the request that started it). */
export const withSpan = <T>(span: Span, work: () => T): T => context.with(trace.setSpan(context.active(), span), work);

/** Ends a span, as failed when `error` says why. */
export function endSpan(span: Span, error?: string) {
  if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
  span.end();
}

export { SpanKind };
