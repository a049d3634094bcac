// A stdio MCP server with the tasks extension, for the proxy's tests (emcp's built bundles):
// `confirm` becomes a task at once, asks the user inside it, and answers what they said.
import { emcp, mcpServer, tasks } from 'emcp'
import { serveStdio } from 'emcp/stdio'

const confirm = emcp({ name: 'confirm', description: 'Asks the user to confirm, inside a task.', input: { type: 'object' }, taskSupport: 'required' })
const server = mcpServer([confirm], { name: 'task-upstream', version: '1.0.0' }, { features: [tasks({ ttlMs: 60_000, pollIntervalMs: 50 })] }).implement({
  confirm: async (_args, ctx) => {
    // a wait on something else first: the call becomes a task, and the question its inputRequests
    await new Promise((resolve) => setImmediate(resolve))
    const r = await ctx.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } }, required: ['go'] } })
    return r.action === 'accept' && r.content.go === true ? 'yes' : 'no'
  },
})
await serveStdio(server)
