/**
 * Type tests of JSON-RPC (src/protocol/jsonrpc.ts): `parse` and `decode` return errors as data (an
 * fp-ts Either), messages narrow by `kind`, `encode` takes only well-formed responses, and
 * the code table has exactly one entry per error tag.
 */
import * as E from 'fp-ts/lib/Either.js'
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import {
  decode,
  encode,
  errorCodes,
  parse,
  type Message,
  type Notification,
  type Outgoing,
  type Reply,
  type Request,
  type RequestId,
  type RpcError,
  type RpcErrorObject,
  type RpcErrorTag,
} from 'emcp'

// ---------------------------------------------------------------------------------------
// parse and decode

expectType<E.Either<RpcError, unknown>>(parse('{"jsonrpc":"2.0","id":1,"method":"ping"}'))
expectError(parse(Buffer.from('{}')))
expectError(parse())

const decoded = decode({ jsonrpc: '2.0', id: 1, method: 'ping' })
expectAssignable<E.Either<unknown, Message>>(decoded)
decode(undefined)
decode([1, 2])
if (E.isLeft(decoded)) {
  expectType<RpcError>(decoded.left.error)
  expectType<RequestId | null>(decoded.left.id)
  expectType<boolean>(decoded.left.answer)
} else {
  const m = decoded.right
  expectType<Message>(m)
  expectType<'request' | 'notification' | 'response'>(m.kind)
  if (m.kind === 'request') {
    expectType<Request>(m)
    expectType<RequestId>(m.id)
    expectType<string>(m.method)
    expectType<{ readonly [key: string]: unknown } | undefined>(m.params)
  } else if (m.kind === 'notification') {
    expectType<Notification>(m)
    expectError(m.id)
  } else {
    expectType<RequestId>(m.id)
    expectType<unknown>(m.result)
    expectType<RpcErrorObject | undefined>(m.error)
    expectError(m.method)
  }
}

// ---------------------------------------------------------------------------------------
// encode

expectType<string>(encode({ jsonrpc: '2.0', id: 1, result: { ok: true } }))
expectType<string>(encode({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }))
expectType<string>(encode({ jsonrpc: '2.0', id: 'a', error: { code: -32602, message: 'no', data: { at: 'x' } } }))
expectType<string>(encode([{ jsonrpc: '2.0', id: 1, result: 1 }, { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'x' } }]))
expectType<string>(encode([]))
expectError(encode({ jsonrpc: '2.0', id: null, result: 1 }))
expectError(encode({ jsonrpc: '2.0', id: 1 }))
expectError(encode({ jsonrpc: '1.0', id: 1, result: 1 }))
expectError(encode({ jsonrpc: '2.0', id: 1, error: { message: 'no code' } }))
expectError(encode({ kind: 'request', id: 1, method: 'ping', params: undefined }))
expectError(encode('{"jsonrpc":"2.0"}'))
expectAssignable<Reply>({ jsonrpc: '2.0', id: 1, result: null })
expectAssignable<Reply>([] as ReadonlyArray<Outgoing>)
expectNotAssignable<Outgoing>({ jsonrpc: '2.0', id: 1.5 as unknown as boolean, result: 1 })

// ---------------------------------------------------------------------------------------
// the error table: its keys are exactly the tags

type Tags = 'ParseError' | 'InvalidRequest' | 'MethodNotFound' | 'InvalidParams' | 'UnknownTool' | 'InvalidCursor' | 'InternalError' | 'ResourceNotFound' | 'Refused' | 'RequestTimeout' | 'Forbidden' | 'InsufficientScope'
  | 'HeaderMismatch' | 'MissingRequiredClientCapability' | 'UnsupportedProtocolVersion' | 'UnknownTask' | 'StoreUnavailable'
expectType<Tags>({} as RpcErrorTag)
expectType<RpcErrorTag>({} as keyof typeof errorCodes)
expectType<{ readonly [K in RpcErrorTag]: number }>(errorCodes)
expectType<number>(errorCodes.ParseError)
expectType<number>(errorCodes[{} as RpcErrorTag])
expectError(errorCodes.Teapot)
expectError((errorCodes.ParseError = -1))
const code = (e: RpcError): number => errorCodes[e._tag]
expectType<(e: RpcError) => number>(code)

expectAssignable<RpcError>({ _tag: 'InvalidParams', message: 'no' })
expectAssignable<RpcError>({ _tag: 'ResourceNotFound', message: 'no', data: { uri: 'x://y' } })
expectNotAssignable<RpcError>({ _tag: 'Teapot', message: 'no' })
expectNotAssignable<RpcError>({ _tag: 'InvalidParams' })
expectAssignable<RpcErrorObject>({ code: -32602, message: 'no' })
expectNotAssignable<RpcErrorObject>({ code: '-32602', message: 'no' })

// request ids are strings or numbers, never null
expectAssignable<RequestId>('r1')
expectAssignable<RequestId>(1)
expectNotAssignable<RequestId>(null)
expectNotAssignable<RequestId>(undefined)
