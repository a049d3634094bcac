/**
 * The calculator traced with OpenTelemetry (`emcp/otel`): a SERVER span per request, parented
 * by the client's `_meta.traceparent`, and the `mcp.server.operation.duration` histogram,
 * both printed by the SDK's console exporters (spans as they end; metrics every
 * `METRICS_MS`, default 60 s). Over stdio the console is redirected to stderr, so stdout
 * carries only JSON-RPC. docs/observability.md shows the same server with an OTLP exporter.
 *
 *   node dist/examples/otel.js --stdio
 *   node dist/examples/otel.js --http --port 3000 [--host 127.0.0.1]
 */
import { metrics, propagation, trace } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { mcpServer } from 'emcp'
import { serveHttp } from 'emcp/http'
import { otel } from 'emcp/otel'
import { serveStdio } from 'emcp/stdio'
import { add, echo } from './calculator.js'
import { portOf, runMain } from './main.js'

/** Installs console exporters as the process's global providers, and W3C trace context as its propagator. */
export const consoleTelemetry = (metricsIntervalMs: number): { readonly shutdown: () => Promise<void> } => {
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] })
  const meterProvider = new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter(), exportIntervalMillis: metricsIntervalMs })],
  })
  trace.setGlobalTracerProvider(tracerProvider)
  metrics.setGlobalMeterProvider(meterProvider)
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  return { shutdown: async () => void (await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()])) }
}

/** The calculator's add and echo with the OpenTelemetry middleware (global providers: call after `consoleTelemetry`). */
export const tracedCalculator = () =>
  mcpServer([add, echo], { name: 'traced-calculator', version: '1.0.0' }, { middleware: [otel()] }).implement({
    add: ({ a, b }) => ({ sum: a + b }),
    echo: ({ text }) => text,
  })

const usage = `The calculator traced with OpenTelemetry, spans and metrics printed by the console exporters.

  node dist/examples/otel.js [--stdio]
  node dist/examples/otel.js --http [--port 3000] [--host 127.0.0.1]

METRICS_MS: how often metrics are printed (default 60000).`

const options = { stdio: { type: 'boolean' }, http: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } } as const

runMain(import.meta.url, { usage, options }, async ({ http, port, host }) => {
  const telemetry = consoleTelemetry(Number(process.env.METRICS_MS ?? 60_000))
  const server = tracedCalculator()
  if (http === true) {
    const running = await serveHttp(server, { port: portOf(port, 3000), host })
    process.stderr.write(`listening on ${running.url}\n`)
    // flush what is buffered when the server stops (serveHttp drains on SIGTERM)
    process.once('beforeExit', () => void telemetry.shutdown())
  } else {
    // no final flush: once serving ends the console writes to stdout again, the client's pipe
    // (spans are printed as they end; metrics every METRICS_MS while serving)
    await serveStdio(server)
  }
})
