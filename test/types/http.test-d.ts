/**
 * Type tests of `emcp/http` (src/transport/http.ts): the Node server, the Web-standard
 * handler, the Node listener and the transport core, all over a built server.
 */
import type { IncomingMessage, Server as NodeServer, ServerResponse } from 'node:http'
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import { emcp, mcpServer } from 'emcp'
import {
  httpCore,
  serveHttp,
  toFetchHandler,
  toNodeListener,
  type BodyRead,
  type FetchHandler,
  type HttpOptions,
  type HttpReply,
  type HttpRequestHead,
  type RunningHttp,
  type ServeHttpOptions,
  memoryEventStore,
  compose,
  type HttpHandler,
  type HttpMiddleware,
  type HttpRequest,
  type HttpSessions,
} from 'emcp/http'

const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
const builder = mcpServer([echo], { name: 'echo', version: '1' })
const server = builder.implement({ echo: ({ text }) => text })

// the Node server
expectType<Promise<RunningHttp>>(serveHttp(server))
expectType<Promise<RunningHttp>>(serveHttp(server, { port: 0, host: '127.0.0.1', path: '/mcp', allowedHosts: ['example.com'] }))
const handle = async (): Promise<void> => {
  const running = await serveHttp(server, { port: 0 })
  expectType<string>(running.url)
  expectType<number>(running.port)
  expectType<NodeServer>(running.server)
  expectType<Promise<void>>(running.close())
  expectType<Promise<void>>(running.drain())
}
expectAssignable<ServeHttpOptions>({ handleSignals: false, drainTimeoutMs: 5_000, sessions: { maxQueuedBytes: 1_048_576 } })
expectNotAssignable<ServeHttpOptions>({ drainTimeoutMs: '5s' })
void handle

// the Web-standard handler and the Node listener
// a fetch handler: Request in, Response out; a runtime's extra arguments (Deno's and Bun's
// connection info, a worker's env and ctx) are optional, so each runtime's `fetch` takes it
expectType<FetchHandler>(toFetchHandler(server))
expectAssignable<(request: Request) => Promise<Response>>(toFetchHandler(server))
const listener = toNodeListener(server, { path: '/mcp' })
expectAssignable<(req: IncomingMessage, res: ServerResponse) => void>(listener)
expectType<HttpSessions | undefined>(listener.sessions)
expectType<Promise<boolean>>(listener.drain(1_000))

// the core
const core = httpCore(server, { maxBodyBytes: 1024 })
expectAssignable<(req: HttpRequestHead, readBody: (limit: number) => Promise<BodyRead>) => Promise<HttpReply>>(core)
expectType<HttpSessions | undefined>(core.sessions)
// stateful mode: sessions on, with limits and an event store
expectType<Promise<RunningHttp>>(serveHttp(server, { port: 0, sessions: { maxSessions: 10, idleMs: 60_000, eventStore: memoryEventStore({ maxEvents: 100 }) } }))
expectError(serveHttp(server, { sessions: { maxSessions: '10' } }))
expectAssignable<BodyRead>('too-large')
expectAssignable<BodyRead>({ text: '{}' })
expectNotAssignable<BodyRead>('empty')

// only a built server; options are typed
expectError(serveHttp(builder))
expectError(toFetchHandler(echo))
expectError(serveHttp(server, { port: '3000' }))
expectError(serveHttp(server, { dnsRebindingProtection: 'off' }))
expectError(toFetchHandler(server, { allowedOrigins: 'https://example.com' }))
expectAssignable<HttpOptions>({ maxBodyBytes: 1, dnsRebindingProtection: false, allowedHosts: [], allowedOrigins: [] })
expectAssignable<ServeHttpOptions>({ port: 3000 })
expectNotAssignable<HttpOptions>({ maxBodyBytes: '4MiB' })

// 2026-07-28: the keep-alive of subscriptions/listen streams
expectAssignable<HttpOptions>({ keepAliveMs: 0 })
expectAssignable<HttpOptions>({ keepAliveMs: 15_000, sessions: true })
expectNotAssignable<HttpOptions>({ keepAliveMs: '15s' })

// the middleware chain: your own steps with `use`, and compose
const health: HttpMiddleware = (req, next) =>
  req.path === '/health' ? Promise.resolve({ status: 200, headers: {}, body: 'ok' }) : next(req)
expectAssignable<HttpOptions>({ use: [health] })
expectType<Promise<RunningHttp>>(serveHttp(server, { port: 0, use: [health] }))
expectNotAssignable<HttpOptions>({ use: 'health' })
// a step gets the request as the chain knows it: the caller (after auth) and the parsed body
expectAssignable<HttpMiddleware>(async (req: HttpRequest, next: HttpHandler) => {
  expectType<string | undefined>(req.identity?.subject)
  expectType<unknown>(req.message)
  return next(req)
})
// a step answers with a status, headers and a body; a bare string is no reply
expectNotAssignable<HttpMiddleware>(async () => 'ok')
expectType<HttpHandler>(compose([health], async () => ({ status: 404, headers: {}, body: '' }), () => ({ status: 500, headers: {}, body: '' })))
