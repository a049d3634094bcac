/**
 * Type tests of `emcp/manifest` (src/sources/manifest/*): a manifest of a const type checks its
 * handler record. A missing handler, a handler for a tool the manifest does not have, and
 * an argument name its schema does not declare do not compile; arguments and results are
 * typed from the manifest's schemas (and from the wire codecs its dispatch metadata names).
 */
import { expectAssignable, expectError, expectType } from 'tsd'
import * as core from 'emcp'
import { type Server } from 'emcp'
import { geometryAny, geometryCodecs, geometryWkt, type Geometry } from 'emcp/geometry'
import {
  fromManifest,
  manifestText,
  namespaced,
  toManifest,
  validateManifest,
  type Manifest,
  type ManifestTools,
  type Policy,
  type ValidationReport,
} from 'emcp/manifest'

const manifest = {
  _meta: { 'emcp/server': { name: 'calc', version: '1.0.0' } },
  tools: [
    {
      name: 'add',
      description: 'Add two numbers.',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    },
    {
      name: 'shout',
      description: 'Upper-case a text.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      _meta: { 'emcp/policy': 'ask' },
    },
    {
      name: 'wipe',
      description: 'Declared, never callable.',
      inputSchema: { type: 'object' },
      _meta: { 'emcp/policy': 'disabled' },
    },
  ],
} as const

// handlers typed from the schemas; the disabled tool needs none
const server = fromManifest(manifest, {
  add: ({ a, b }) => {
    expectType<number>(a)
    return { sum: a + b }
  },
  shout: ({ text }) => text.toUpperCase(),
})
expectAssignable<Server>(server)
expectType<'add' | 'shout' | 'wipe'>(server.tools[0]!.name)

// a missing handler does not compile
expectError(fromManifest(manifest, { add: ({ a, b }) => ({ sum: a + b }) }))

// a handler for a tool the manifest does not have does not compile, and says which
expectError(fromManifest(manifest, { add: ({ a, b }) => ({ sum: a + b }), shout: ({ text }) => text, sub: () => 'x' }))

// an argument name the schema does not declare (the "fails silently" key): its type is
// `unknown` in an open schema (any other key may come), so using it as a number does not
// compile; in a closed schema (additionalProperties: false) naming it does not compile
expectError(fromManifest(manifest, { add: ({ a, c }) => ({ sum: a + c }), shout: ({ text }) => text }))
const closed = {
  tools: [
    {
      name: 'add',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
    },
  ],
} as const
// message: /^Property 'c' does not exist on type '\{ a: number; b: number; \}'/
expectError(fromManifest(closed, { add: ({ a, c }) => String(a) }))
// naming it in an open schema compiles (an unknown value); fromManifest rejects the handler at startup
fromManifest(manifest, {
  add: ({ a, c }) => {
    expectType<unknown>(c)
    return { sum: a }
  },
  shout: ({ text }) => text,
})

// a manifest that lists a name twice does not compile, as a tool list in mcpServer does not
const twice = {
  tools: [
    { name: 'add', inputSchema: { type: 'object' } },
    { name: 'sub', inputSchema: { type: 'object' } },
    { name: 'add', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
  ],
} as const
// message: /"duplicate tool name: add"/
expectError(fromManifest(twice, { add: () => 'a', sub: () => 's' }))
// message: /Property '"duplicate tool name: add"' is missing in type /
expectError(fromManifest({ tools: [{ name: 'add', inputSchema: { type: 'object' } }, { name: 'add', inputSchema: { type: 'object' } }] }, { add: () => 'a' }))

// a result that does not match the output schema does not compile
expectError(fromManifest(manifest, { add: ({ a, b }) => ({ total: a + b }), shout: ({ text }) => text }))

// wire codecs named in the dispatch metadata type their arguments as the decoded value
const geo = {
  tools: [
    {
      name: 'area',
      inputSchema: { type: 'object', properties: { shape: { type: 'string' } }, required: ['shape'] },
      _meta: { 'emcp/dispatch': { arguments: { shape: 'geometry/wkt' } } },
    },
  ],
} as const
fromManifest(geo, { area: ({ shape }) => {
  expectType<Geometry>(shape)
  return shape.type
} }, { codecs: { 'geometry/wkt': geometryWkt } })

// a codec the dispatch metadata names but options.codecs does not give does not compile
// (the error names it: "options.codecs has no codec named "geometry/wkt""), options or none
expectError(fromManifest(geo, { area: ({ shape }) => String(shape) }))
expectError(fromManifest(geo, { area: ({ shape }) => String(shape) }, { codecs: { 'geometry/wkb-hex': geometryWkt } }))

// a SEMOSS manifest: handlers are keyed by SMSS_FUNCTION_NAME (a renamed tool keeps its
// handler), a tool disabled by SMSS_MCP_EXECUTION (in any case) needs none, and tools that
// dispatch to one handler give it the union of their arguments
const semoss = {
  tools: [
    {
      name: 'weather_forecast',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      _type: 'python',
      _meta: { SMSS_FUNCTION_NAME: 'GetWeather', SMSS_MCP_EXECUTION: 'ask', SMSS_MCP_UI: { resourceURI: '/#/forecast' } },
    },
    { name: 'staged', inputSchema: { type: 'object' }, _meta: { SMSS_FUNCTION_NAME: 'Staged', SMSS_MCP_EXECUTION: 'DISABLED' } },
    { name: 'play_a', inputSchema: { type: 'object', properties: { user: { type: 'string' } } }, _meta: { SMSS_FUNCTION_NAME: 'Play' } },
    { name: 'play_b', inputSchema: { type: 'object', properties: { query: { type: 'string' } } }, _meta: { SMSS_FUNCTION_NAME: 'Play' } },
  ],
} as const
fromManifest(semoss, {
  GetWeather: ({ city }) => {
    expectType<string>(city)
    return city
  },
  Play: (args) => {
    expectAssignable<{ readonly user?: string } | { readonly query?: string }>(args)
    return JSON.stringify(args)
  },
})
// the tool's own name is not its handler's key
expectError(fromManifest(semoss, { weather_forecast: (args: { city: string }) => args.city, Play: () => 'x' }))
// a handler is still required for a tool that is not disabled
expectError(fromManifest(semoss, { Play: () => 'x' }))

// a MEOS manifest's x-meos types the same way: decode names the parse function of each
// argument, encode the serialize function of the result, both looked up in the registry
const meos = {
  tools: [
    {
      name: 'geom_centroid',
      inputSchema: { type: 'object', properties: { gs: { type: 'string' } }, required: ['gs'], additionalProperties: false },
      outputSchema: { type: 'object', properties: { result: { type: 'string' } }, required: ['result'] },
      'x-meos': { category: 'transformation', decode: { gs: 'geom_in' }, encode: 'geo_out' },
    },
  ],
} as const
fromManifest(meos, { geom_centroid: ({ gs }) => {
  expectType<Geometry>(gs)
  return { result: gs }
} }, { codecs: geometryCodecs })
// the result is the decoded value, not its wire string
expectError(fromManifest(meos, { geom_centroid: () => ({ result: 'POINT (0 0)' }) }, { codecs: geometryCodecs }))
// a registry without the serialize function does not compile
expectError(fromManifest(meos, { geom_centroid: ({ gs }) => ({ result: gs }) }, { codecs: { geom_in: geometryAny } }))

// a manifest read at run time takes a handler record built at run time
fromManifest(JSON.parse('{"tools":[]}') as Manifest, Object.fromEntries([['f', () => 'x']]))

// exports and reports are plain data
expectAssignable<Manifest>(toManifest(server))
expectType<string>(manifestText(toManifest(server)))
expectType<ValidationReport>(validateManifest(JSON.parse('{}')))
expectAssignable<Policy>('ask')
expectError<Policy>('sometimes')
type Tools = ManifestTools<typeof manifest>
expectType<'add' | 'shout' | 'wipe'>({} as Tools['name'])

// a manifest read at run time (typed Manifest): any tool names, arguments as unknown values,
// results unchecked by the compiler (the run-time checks at startup and per call remain)
const loaded = JSON.parse('{"tools":[]}') as Manifest
fromManifest(loaded, {
  add: ({ a, b }) => {
    expectType<unknown>(a)
    return { sum: Number(a) + Number(b) }
  },
  echo: (args) => JSON.stringify(args),
})
// such a server is a Server, and its typed client takes any tool name and arguments
const loadedServer = fromManifest(loaded, { echo: (args) => JSON.stringify(args) })
expectAssignable<Server>(loadedServer)
expectType<Promise<core.CallToolResult>>(core.inMemoryClient(loadedServer).callResult('echo', { text: 'hi' }))
expectError(core.inMemoryClient(loadedServer).callResult('echo', 'hi'))

// arguments with a `default` in a const manifest: the handler gets them, a caller may leave them out
const paged = {
  tools: [
    {
      name: 'page',
      inputSchema: { type: 'object', properties: { version: { type: 'string' }, limit: { type: 'integer', default: 10 } }, required: ['version'] },
      outputSchema: { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } }, required: ['items'] },
    },
  ],
} as const
const pagedServer = fromManifest(paged, { page: ({ version, limit }) => ({ items: Array.from({ length: limit }, () => version) }) })
expectType<Promise<{ [x: string]: unknown; items: string[] }>>(core.inMemoryClient(pagedServer).call('page', { version: 'v1' }))
expectError(core.inMemoryClient(pagedServer).call('page', { limit: 5 }))

// the main functions are in the barrel too
expectType<typeof toManifest>(core.toManifest)
expectType<typeof fromManifest>(core.fromManifest)

// a namespaced contract is a contract of its new name through and through: `implement` takes its
// handler under that name, and still refuses a result key its closed output does not allow
{
  const add = core.emcp({
    name: 'add',
    input: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
    output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
  })
  const renamed = namespaced('math', add)
  expectType<'math.add'>(renamed.name)
  expectType<'math.add'>(renamed._R.name)
  const builder = core.mcpServer([renamed], { name: 'm', version: '1' })
  expectType<Server<typeof renamed>>(builder.implement({ 'math.add': ({ a }) => ({ sum: a }) }))
  // message: /result key extra of math\.add is not in its output schema/
  expectError(builder.implement({ 'math.add': ({ a }) => ({ sum: a, extra: 1 }) }))
}
