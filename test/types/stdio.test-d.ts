/**
 * Type tests of `emcp/stdio` (src/transport/stdio.ts): it serves any built server, not a
 * builder that still waits for its handlers, with typed options.
 */
import { PassThrough } from 'node:stream'
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import { emcp, mcpServer } from 'emcp'
import { serveStdio, startStdio, type StdioOptions, type StdioServer } from 'emcp/stdio'

const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
const builder = mcpServer([echo], { name: 'echo', version: '1' })
const server = builder.implement({ echo: ({ text }) => text })

expectType<Promise<void>>(serveStdio(server))
expectType<Promise<void>>(serveStdio(server, { maxLineBytes: 1024, maxInFlight: 8, maxQueuedBytes: 1 << 20 }))
expectError(serveStdio(server, { maxQueuedBytes: '16 MiB' }))
const running = startStdio(server, { input: new PassThrough(), output: new PassThrough(), redirectConsole: false, handleSignals: false })
expectType<StdioServer>(running)
expectType<Promise<void>>(running.done)
expectType<Promise<void>>(running.close())
expectType<Promise<void>>(running.drain())
expectAssignable<StdioOptions>({ drainTimeoutMs: 5_000, handleSignals: true })
expectNotAssignable<StdioOptions>({ drainTimeoutMs: '5s' })

// only a built server: not a builder, not a contract
expectError(serveStdio(builder))
expectError(serveStdio(echo))
expectError(serveStdio())
// options are typed
expectError(serveStdio(server, { maxLineBytes: '1MiB' }))
expectError(startStdio(server, { input: 'stdin' }))
expectAssignable<StdioOptions>({})
expectNotAssignable<StdioOptions>({ handleSignals: 'yes' })
