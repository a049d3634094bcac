/**
 * Type tests of resources and URI templates (src/features/resources.ts, src/features/uri-template.ts): a
 * template's variables are typed from its literal (`{x}` required, `{?x}` optional), so
 * reading a variable the template does not have, or completing one, does not compile.
 */
import type * as O from 'fp-ts/lib/Option.js'
import { expectAssignable, expectError, expectType } from 'tsd'
import {
  expand,
  match,
  mcpServer,
  emcp,
  resource,
  resources,
  resourceTemplate,
  uriTemplate,
  type AnyResource,
  type FeatureFactory,
  type ReadResult,
  type ResourceContext,
  type ResourcesFeature,
  type ResourceTemplate,
  type UriParams,
} from 'emcp'

// the variables of a template literal
expectType<{ dir: string; name: string; rev?: string }>({} as UriParams<'file:///{dir}/{name}{?rev}'>)
expectType<{ path: string; frag?: string }>({} as UriParams<'file:///{+path}{#frag}'>)
expectType<{ owner: string; repo: string; ext: string; page?: string; per?: string; sort?: string }>(
  {} as UriParams<'git://{/owner,repo}{.ext}{?page,per}{&sort}'>,
)
expectType<{}>({} as UriParams<'docs://readme'>)
expectType<{ readonly [name: string]: string }>({} as UriParams<string>)

// match and expand are typed by the literal
expectType<O.Option<{ dir: string; name: string; rev?: string }>>(match('file:///{dir}/{name}{?rev}', 'file:///a/b'))
expectType<string>(expand('file:///{dir}/{name}{?rev}', { dir: 'a', name: 'b' }))
expectError(expand('file:///{dir}/{name}{?rev}', { dir: 'a' }))
expectError(expand('file:///{dir}/{name}', { dir: 'a', name: 'b', nope: 'c' }))
expectType<'x://{a}'>(uriTemplate('x://{a}').template)

// read gets the variables typed; a wrong key does not compile
const page = resourceTemplate({
  uriTemplate: 'docs://pages/{slug}{?rev}',
  name: 'page',
  read: (params, ctx) => {
    expectType<{ slug: string; rev?: string }>(params)
    expectType<ResourceContext>(ctx)
    expectType<string>(ctx.uri)
    return params.slug
  },
  complete: {
    slug: (value, context) => {
      expectType<string>(value)
      expectType<string | undefined>(context.arguments.rev)
      return ['intro']
    },
    rev: async () => ({ values: ['1'], hasMore: false }),
  },
})
expectType<ResourceTemplate<'docs://pages/{slug}{?rev}'>>(page)
expectError(resourceTemplate({ uriTemplate: 'docs://{slug}', name: 'p', read: ({ nope }) => nope }))
expectError(resourceTemplate({ uriTemplate: 'docs://{slug}', name: 'p', read: ({ slug }) => slug, complete: { nope: () => [] } }))
expectError(resourceTemplate({ uriTemplate: 'docs://{slug}', name: 'p', read: () => 42 }))

// a static resource reads text, bytes or contents
const readme = resource({ uri: 'docs://readme', name: 'readme', read: () => new Uint8Array([1]) })
expectAssignable<ReadResult>([{ uri: 'x://a', text: 't' }, { uri: 'x://b', blob: 'AA==' }])
expectError(resource({ uri: 'docs://readme', name: 'readme', read: () => ({ uri: 'x://a' }) }))
expectError(resource({ uri: 'docs://readme', read: () => '' }))

// templates of any literal go into one list; the result is a feature and a handle
expectAssignable<AnyResource>(page)
const docs = resources([readme, page], { subscribe: true, pageSize: 10 })
expectType<ResourcesFeature>(docs)
expectAssignable<FeatureFactory>(docs)
expectType<void>(docs.updated('docs://readme'))
expectType<boolean>(docs.remove('docs://readme'))
expectError(resources([{ uri: 'x://y', name: 'y' }]))
const noop = emcp({ name: 'noop', input: { type: 'object' } })
mcpServer([noop], { name: 's', version: '1' }, { features: [docs] }).implement({ noop: () => 'ok' })

// scopes: a list of scope names, as on tools
expectAssignable<AnyResource>(resource({ uri: 'docs://s', name: 's', read: () => 's', scopes: ['docs:read'] }))
expectAssignable<AnyResource>(resourceTemplate({ uriTemplate: 'docs://s/{x}', name: 's', read: ({ x }) => x, scopes: ['docs:read'] }))
expectError(resource({ uri: 'docs://s', name: 's', read: () => 's', scopes: 'docs:read' }))
expectError(resourceTemplate({ uriTemplate: 'docs://s/{x}', name: 's', read: ({ x }) => x, scopes: [1] }))
