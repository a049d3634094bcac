// A stdio MCP server for the proxy's tests (emcp's built bundles): `count` answers how many
// calls this process has served, `crash` exits the process at once (an upstream that dies).
import { emcp, mcpServer } from 'emcp'
import { serveStdio } from 'emcp/stdio'

let served = 0
const count = emcp({ name: 'count', description: 'How many calls this process served.', input: { type: 'object' } })
const crash = emcp({ name: 'crash', description: 'Exits the process.', input: { type: 'object' } })
const server = mcpServer([count, crash], { name: 'crashy', version: '1.0.0' }).implement({
  count: () => `${++served} (pid ${process.pid})`,
  crash: () => process.exit(3),
})
await serveStdio(server)
