/**
 * Type tests of `runtimeTool` (src/contract/runtime-tool.ts): a contract from schemas known only at run
 * time takes any JSON Schema object or codec, types its arguments as a JSON object and its
 * result as unknown, and fits `mcpServer` and `addTool` without a cast.
 */
import * as t from 'io-ts'
import { expectAssignable, expectError, expectType } from 'tsd'
import { z as zr } from 'zod'
import { mcpServer, runtimeTool, type AnyTool, type Handler, type JsonSchema, type RuntimeArgs, type RuntimeTool, type Server } from 'emcp'

declare const schema: JsonSchema
const tool = runtimeTool({ name: 'lookup', description: 'Find.', input: schema, output: schema, annotations: { readOnlyHint: true }, 'x-origin': 'db' })
expectType<RuntimeTool>(tool)
expectType<string>(tool.name)
expectType<RuntimeArgs>(tool._I)
expectType<unknown>(tool._O)
expectType<boolean>(tool._S)
expectAssignable<AnyTool>(tool)
expectType<RuntimeTool>(runtimeTool({ name: 'codec', input: t.type({ a: t.string }) }))

// what it refuses: a name that is not a string, a schema that is not an object, a misspelt field
expectError(runtimeTool({ name: 7, input: schema }))
expectError(runtimeTool({ name: 'x', input: 'object' }))
expectError(runtimeTool({ name: 'x', input: schema, descripton: 'typo' }))
expectError(runtimeTool({ name: 'x' }))

// a list built at run time makes a server; handlers read arguments as unknown values
const tools: RuntimeTool[] = [tool]
const handlers: Record<string, Handler<RuntimeTool>> = {
  lookup: (args) => {
    expectType<RuntimeArgs>(args)
    return String(args.id)
  },
}
const server = mcpServer(tools, { name: 's', version: '1' }).implement(handlers)
expectType<Server<RuntimeTool>>(server)
expectType<Server<RuntimeTool>>(server.addTool(runtimeTool({ name: 'more', input: schema }), (args) => Object.keys(args).length))
// a handler must take the arguments as a JSON object, not as some narrower type
expectError(mcpServer([tool], { name: 's', version: '1' }).implement({ lookup: (args: { id: number }) => args.id }))

// a Standard Schema in either slot (zod): the contract stays a RuntimeTool
expectType<RuntimeTool>(runtimeTool({ name: 'zod', input: zr.object({ a: zr.string() }), output: zr.object({ n: zr.number() }) }))
