/**
 * Type tests of the server's channel to a client (src/server/outbound.ts): `outbound` wraps a send
 * function of `ServerMessage`s; requests resolve to `unknown` (the caller checks the shape),
 * take typed options, and are settled by responses; `ClientError` carries the client's code
 * and data.
 */
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import { ClientError, outbound, type Outbound, type RequestOptions, type ServerMessage } from 'emcp'

// ---------------------------------------------------------------------------------------
// outbound()

const out = outbound((message) => {
  expectType<ServerMessage>(message)
})
expectType<Outbound>(out)
expectType<Outbound>(outbound((message: unknown) => console.log(message)))
expectType<Outbound>(outbound((message) => [message].length))
expectError(outbound())
expectError(outbound('stdout'))
expectError(outbound((message: string) => message.length))

// ---------------------------------------------------------------------------------------
// its methods

expectType<void>(out.notify('notifications/tools/list_changed'))
expectType<void>(out.notify('notifications/message', { level: 'info', data: 'hi' }))
expectError(out.notify())
expectError(out.notify(1))
expectError(out.notify('m', 'params'))

expectType<Promise<unknown>>(out.request('roots/list'))
expectType<Promise<unknown>>(out.request('sampling/createMessage', { maxTokens: 5 }))
expectType<Promise<unknown>>(out.request('roots/list', undefined, { timeoutMs: 5000, signal: new AbortController().signal }))
expectError(out.request('roots/list', undefined, { timeoutMs: '5000' }))
expectError(out.request('roots/list', undefined, { signal: 'abort' }))
expectError(out.request('roots/list', undefined, { timeout: 5000 }))

expectType<boolean>(out.settle({ kind: 'response', id: 'emcp-1', result: { roots: [] } }))
expectType<boolean>(out.settle({ kind: 'response', id: 1, error: { code: -32601, message: 'no', data: { why: 1 } } }))
expectType<boolean>(out.settle({ kind: 'response', id: 1 }))
expectError(out.settle({ id: 1, result: {} }))
expectError(out.settle({ kind: 'request', id: 1, result: {} }))
expectError(out.settle({ kind: 'response', id: null, result: {} }))
expectError(out.settle({ kind: 'response', id: 1, error: { message: 'no code' } }))

expectType<void>(out.close('the connection closed'))
expectError(out.close())

// the channel's members are fixed
expectError((out.notify = () => {}))

// ---------------------------------------------------------------------------------------
// the option and message types

expectAssignable<RequestOptions>({})
expectAssignable<RequestOptions>({ timeoutMs: 1 })
expectAssignable<RequestOptions>({ signal: AbortSignal.timeout(10) })
expectNotAssignable<RequestOptions>({ timeoutMs: '1' })

expectAssignable<ServerMessage>({ jsonrpc: '2.0', method: 'notifications/progress' })
expectAssignable<ServerMessage>({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } })
expectAssignable<ServerMessage>({ jsonrpc: '2.0', id: 'emcp-1', method: 'roots/list' })
expectAssignable<ServerMessage>({ jsonrpc: '2.0', id: 7, method: 'ping', params: {} })
expectNotAssignable<ServerMessage>({ jsonrpc: '1.0', method: 'ping' })
expectNotAssignable<ServerMessage>({ jsonrpc: '2.0', id: null, method: 'ping' })
expectNotAssignable<ServerMessage>({ jsonrpc: '2.0', id: 1, result: {} })
expectNotAssignable<ServerMessage>({ jsonrpc: '2.0', method: 'm', params: 'p' })

// ---------------------------------------------------------------------------------------
// ClientError

const e = new ClientError(-32601, 'Method not found', { method: 'roots/list' })
expectType<ClientError>(e)
expectAssignable<Error>(e)
expectType<number>(e.code)
expectType<string>(e.message)
expectType<unknown>(e.data)
expectType<string>(e.name)
expectType<ClientError>(new ClientError(-32603, 'boom'))
expectError(new ClientError('-32603', 'boom'))
expectError(new ClientError(-32603))
expectError((e.code = 1))
expectError((e.data = 1))
const caught = (u: unknown) => {
  if (u instanceof ClientError) expectType<number>(u.code)
}
expectType<(u: unknown) => void>(caught)
