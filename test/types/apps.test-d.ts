/**
 * Type tests of MCP Apps (src/features/apps.ts): an app's URI stays a literal, a linked tool
 * keeps its contract, and a tool linking an app the server does not declare does not compile
 * (the message names the problem first); URIs known only at run time pass the compiler.
 */
import { expectError, expectType } from 'tsd'
import { appResource, emcp, linkApp, mcpServer, type AppResource, type Server } from 'emcp'

const panel = appResource({ uri: 'ui://calc/panel', name: 'panel', html: '<p>panel</p>', csp: { connectDomains: ['https://api.example.com'] } })
expectType<AppResource<'ui://calc/panel'>>(panel)

const add = emcp({
  name: 'add',
  description: 'Add.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
} as const)
const linked = linkApp(add, panel, { visibility: ['model', 'app'] })
expectType<'add'>(linked.name)
expectType<'ui://calc/panel'>(linked._app)

// declared: compiles, and the handler is typed from the contract
expectType<Server<typeof linked>>(mcpServer([linked], { name: 'c', version: '1' }, { apps: [panel] }).implement({ add: ({ a, b }) => ({ sum: a + b }) }))

// a link by URI literal to an app the server does declare
const byUri = linkApp(add, 'ui://calc/panel')
mcpServer([byUri], { name: 'c', version: '1' }, { apps: [panel] }).implement({ add: ({ a, b }) => ({ sum: a + b }) })

// message 7.0: /^Property '"tool add links ui:\/\/calc\/other, which no app in the apps option declares"' is missing in type /
// message 5.9: /^Property '"tool add links ui:\/\/calc\/other, which no app in the apps option declares"' is missing in type /
expectError(mcpServer([linkApp(add, 'ui://calc/other')], { name: 'c', version: '1' }, { apps: [panel] }).implement({ add: ({ a, b }) => ({ sum: a + b }) }))

// message 7.0: /^Property '"tool add links ui:\/\/calc\/panel, which no app in the apps option declares"' is missing in type /
// message 5.9: /^Property '"tool add links ui:\/\/calc\/panel, which no app in the apps option declares"' is missing/
expectError(mcpServer([linked], { name: 'c', version: '1' }).implement({ add: ({ a, b }) => ({ sum: a + b }) }))

// an app URI known only at run time is checked when the server is built, not by the compiler
const dynamic: string = 'ui://calc/panel'
mcpServer([linkApp(add, dynamic)], { name: 'c', version: '1' }, { apps: [panel] }).implement({ add: ({ a, b }) => ({ sum: a + b }) })

// a contract written inside linkApp keeps its name
const inlineLinked = linkApp(emcp({ name: 'inline_tool', input: { type: 'object' } }), panel)
expectType<'inline_tool'>(inlineLinked.name)

// a list mixing linked and unlinked contracts: only the linked ones are checked
const plain = emcp({ name: 'plain', input: { type: 'object' } })
expectType<never>(plain._app)
mcpServer([plain, linked], { name: 'c', version: '1' }, { apps: [panel] }).implement({ plain: () => 'ok', add: ({ a, b }) => ({ sum: a + b }) })
// message 7.0: /^Property '"tool add links ui:\/\/calc\/other, which no app in the apps option declares"' is missing in type /
// message 5.9: /^Property '"tool add links ui:\/\/calc\/other, which no app in the apps option declares"' is missing in type /
expectError(mcpServer([plain, linkApp(add, 'ui://calc/other')], { name: 'c', version: '1' }, { apps: [panel] }).implement({ plain: () => 'ok', add: ({ a, b }) => ({ sum: a + b }) }))

// linking again moves the link; the contract's types stay
const relinked = linkApp(linked, 'ui://calc/other')
expectType<'ui://calc/other'>(relinked._app)
expectType<{ [x: string]: unknown; a: number; b: number }>(relinked._I)
