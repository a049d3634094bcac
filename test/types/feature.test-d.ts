/**
 * Type tests of features (src/server/feature.ts): a feature's methods answer with an fp-ts Either
 * (now or as a Promise), so a method returning a bare value does not compile; completion
 * requests and answers have the shapes MCP gives them.
 */
import * as E from 'fp-ts/lib/Either.js'
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import {
  emcp,
  mcpServer,
  type Answer,
  type Completion,
  type CompletionRequest,
  type Feature,
  type FeatureContext,
  type FeatureFactory,
  type Hub,
  type MethodHandler,
  type Request,
  type RpcError,
  type Session,
} from 'emcp'

// ---------------------------------------------------------------------------------------
// a factory gets the hub; methods get the request and the session

const hello: FeatureFactory = (hub) => {
  expectType<Hub>(hub)
  return {
    capabilities: { experimental: { hello: {} } },
    methods: {
      'hello/say': (req, session) => {
        expectType<Request>(req)
        expectType<Session>(session)
        return E.right({ text: `hello ${String(req.params?.who ?? 'world')}` })
      },
      'hello/later': async () => E.right({ later: true }),
      'hello/fail': () => E.left({ _tag: 'InvalidParams', message: 'no' }),
      'hello/either': (req) => (req.params === undefined ? E.left({ _tag: 'InvalidParams', message: 'params?' } as RpcError) : E.right(1)),
    },
    release: (session) => {
      expectType<Session>(session)
    },
  }
}
// a factory gets the hub, and the shared store of replicas when the server gives it
expectType<(hub: Hub, context?: FeatureContext) => Feature>(hello)
expectAssignable<FeatureFactory>((hub: Hub) => hello(hub))
const noop = emcp({ name: 'noop', input: { type: 'object' } })
const info = { name: 'f', version: '1' }
mcpServer([noop], info, { features: [hello] }).implement({ noop: () => 'ok' })

// ---------------------------------------------------------------------------------------
// methods answer with an Either: anything else does not compile

expectAssignable<Feature>({ capabilities: {}, methods: {} })
expectNotAssignable<Feature>({ methods: {} })
expectNotAssignable<Feature>({ capabilities: {} })
expectNotAssignable<Feature>({ capabilities: {}, methods: { a: () => 42 } })
expectNotAssignable<Feature>({ capabilities: {}, methods: { a: () => ({ text: 'hello' }) } })
expectNotAssignable<Feature>({ capabilities: {}, methods: { a: async () => ({ text: 'hello' }) } })
expectNotAssignable<Feature>({ capabilities: {}, methods: { a: () => undefined } })
expectNotAssignable<Feature>({ capabilities: {}, methods: { a: () => E.left('a string is not an RpcError') } })
expectNotAssignable<Feature>({ capabilities: {}, methods: { a: () => E.left({ _tag: 'Teapot', message: 'no' }) } })
expectNotAssignable<Feature>({ capabilities: {}, methods: { a: (req: string) => E.right(req) } })
expectError(mcpServer([noop], info, { features: [() => ({ capabilities: {}, methods: { 'x/y': () => 'text' } })] }))
expectError(mcpServer([noop], info, { features: [() => ({ capabilities: {}, methods: { 'x/y': async () => 42 } })] }))
expectError(mcpServer([noop], info, { features: [{ capabilities: {}, methods: {} }] }))

expectType<Answer>({} as ReturnType<MethodHandler>)
expectAssignable<Answer>(E.right(1))
expectAssignable<Answer>(Promise.resolve(E.right(1)))
expectAssignable<Answer>(E.left({ _tag: 'MethodNotFound', message: 'no' } as RpcError))
expectNotAssignable<Answer>(1)
expectNotAssignable<Answer>(Promise.resolve(1))

// ---------------------------------------------------------------------------------------
// completion: requests and answers

expectAssignable<CompletionRequest>({ ref: { type: 'ref/prompt', name: 'trip' }, argument: { name: 'city', value: 'O' } })
expectAssignable<CompletionRequest>({
  ref: { type: 'ref/resource', uri: 'file:///{dir}/{name}' },
  argument: { name: 'name', value: '' },
  context: { arguments: { dir: 'docs' } },
})
expectAssignable<CompletionRequest>({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' }, context: {} })
expectNotAssignable<CompletionRequest>({ ref: { type: 'ref/prompt', uri: 'x://y' }, argument: { name: 'a', value: '' } })
expectNotAssignable<CompletionRequest>({ ref: { type: 'ref/resource', name: 'y' }, argument: { name: 'a', value: '' } })
expectNotAssignable<CompletionRequest>({ ref: { type: 'ref/tool', name: 'y' }, argument: { name: 'a', value: '' } })
expectNotAssignable<CompletionRequest>({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a' } })
expectNotAssignable<CompletionRequest>({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' }, context: { arguments: { n: 1 } } })
const narrow = (r: CompletionRequest) => {
  if (r.ref.type === 'ref/prompt') expectType<string>(r.ref.name)
  else expectType<string>(r.ref.uri)
  expectType<string | undefined>(r.context?.arguments?.dir)
}
expectType<(r: CompletionRequest) => void>(narrow)

expectAssignable<Completion>({ values: [] })
expectAssignable<Completion>({ values: ['a', 'b'], total: 10, hasMore: true })
expectNotAssignable<Completion>({ values: [1] })
expectNotAssignable<Completion>({ total: 1 })
expectNotAssignable<Completion>({ values: ['a'], hasMore: 'yes' })

// a feature completes the references it owns, and answers undefined for the others
expectAssignable<Feature>({
  capabilities: {},
  methods: {},
  complete: (request: CompletionRequest, session: Session) => (request.ref.type === 'ref/prompt' && session.initialized ? { values: ['a'] } : undefined),
})
expectAssignable<Feature>({ capabilities: {}, methods: {}, complete: async () => ({ values: ['a'], total: 1 }) })
expectNotAssignable<Feature>({ capabilities: {}, methods: {}, complete: () => ['a'] })
expectNotAssignable<Feature>({ capabilities: {}, methods: {}, complete: async () => 'a' })
expectNotAssignable<Feature>({ capabilities: {}, methods: {}, release: (s: string) => s })
