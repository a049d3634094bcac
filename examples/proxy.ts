/**
 * A proxy: the calculator, running elsewhere (here: over HTTP at --upstream), served through
 * emcp under the namespace `calc`, next to a tool of this process. The upstream's tools are
 * typed by a snapshot of it (calculator.manifest.ts, written by `emcp manifest <url> --format
 * ts`), so `calc_add` takes `{ a: number, b: number }` in every typed helper. Start the
 * calculator first:
 *
 *   node dist/examples/calculator.js --http --port 3000
 *   node dist/examples/proxy.js --upstream http://127.0.0.1:3000/mcp [--http --port 3001]
 *
 * The same without code: `emcp proxy http://127.0.0.1:3000/mcp --http --port 3001`.
 */
import { emcp, mcpServer, mount, mounted } from 'emcp'
import { serveHttp } from 'emcp/http'
import { proxy } from 'emcp/proxy'
import { serveStdio } from 'emcp/stdio'
import calculator from './calculator.manifest.js'
import { portOf, runMain } from './main.js'

/** A tool of this process, beside the proxied ones. */
const hello = emcp({ name: 'hello', description: 'Say hello.', input: { type: 'object', properties: { who: { type: 'string' } } } })
const local = mcpServer([hello], { name: 'local', version: '1.0.0' }).implement({ hello: ({ who }) => `hello ${who ?? 'world'}` })

/** The calculator at `url`, mounted under `calc` beside the local tool. */
export const gateway = async (url: string) => {
  const remote = await proxy({ url }, { manifest: calculator })
  return mount([local, mounted(remote, 'calc')], { name: 'gateway', version: '1.0.0' })
}

const usage = `The calculator at --upstream, proxied under the namespace calc.

  node dist/examples/proxy.js --upstream http://127.0.0.1:3000/mcp [--stdio]
  node dist/examples/proxy.js --upstream http://127.0.0.1:3000/mcp --http [--port 3001] [--host 127.0.0.1]`

const options = { upstream: { type: 'string' }, stdio: { type: 'boolean' }, http: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } } as const

runMain(import.meta.url, { usage, options }, async ({ upstream, http, port, host }) => {
  const server = await gateway(upstream ?? 'http://127.0.0.1:3000/mcp')
  if (http === true) {
    const running = await serveHttp(server, { port: portOf(port, 3001), host })
    process.stderr.write(`listening on ${running.url}\n`)
  } else await serveStdio(server)
})
