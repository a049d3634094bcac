/**
 * A real OpenTelemetry SDK for the tests, in memory: a tracer provider whose spans go to the
 * in-memory exporter of @opentelemetry/sdk-trace-base, a meter provider read on demand by a
 * pull reader of @opentelemetry/sdk-metrics, and the W3C Trace Context propagator.
 */
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { AggregationTemporality, DataPointType, MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics'
import type { OtelOptions } from '../../src/otel/index.js'

/** A metric reader that collects when asked (the SDK's readers push on a timer). */
class PullReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE })
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve()
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve()
  }
}

/** One histogram data point, as the tests read it. */
export interface Point {
  readonly attributes: { readonly [key: string]: unknown }
  readonly count: number
  readonly sum: number | undefined
}

/** A fresh SDK: the options for `otel()`, the spans ended so far, and the duration histogram's points. */
export const telemetry = () => {
  const exporter = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const reader = new PullReader()
  const meterProvider = new MeterProvider({ readers: [reader] })
  const options: OtelOptions = { tracerProvider, meterProvider, propagator: new W3CTraceContextPropagator() }
  const spans = (): ReadonlyArray<ReadableSpan> => exporter.getFinishedSpans()
  /** The histogram as collected now: its descriptor and points, or undefined before any request. */
  const duration = async (): Promise<{ readonly metric: HistogramMetricData; readonly points: ReadonlyArray<Point> } | undefined> => {
    const { resourceMetrics, errors } = await reader.collect()
    if (errors.length > 0) throw new Error(`metric collection failed: ${String(errors[0])}`)
    const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'mcp.server.operation.duration')
    if (metric === undefined) return undefined
    if (metric.dataPointType !== DataPointType.HISTOGRAM) throw new Error(`mcp.server.operation.duration is a ${metric.dataPointType}, not a histogram`)
    return { metric, points: metric.dataPoints.map((p) => ({ attributes: p.attributes, count: p.value.count, sum: p.value.sum })) }
  }
  return { options, spans, duration, exporter, tracerProvider, meterProvider }
}

/** A W3C traceparent and its parts. */
export const parent = {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  tracestate: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE',
} as const

/** The span named `name`, failing when there is not exactly one. */
export const only = (spans: ReadonlyArray<ReadableSpan>, name: string): ReadableSpan => {
  const found = spans.filter((s) => s.name === name)
  if (found.length !== 1) throw new Error(`expected one span named ${name}, got ${found.length} among ${spans.map((s) => s.name).join(', ')}`)
  return found[0] as ReadableSpan
}
