/**
 * The benchmark contract through `emcp/proxy`: the server of examples/bench.ts (add plus
 * TOOLS=N filler tools) runs as the upstream, and this process serves a proxy of it, so that
 * every call crosses the proxy (its checks, the SDK client, a second hop on the same
 * transport) before the same handler answers. stdio: the upstream is a stdio child of the
 * proxy; http: the upstream serves stateless HTTP on a port of its own, the proxy on PORT.
 * The upstream child ends with this process (its stdin closes when this process dies, even by
 * SIGKILL).
 *
 *   TOOLS=2000 node bench/servers/emcp-proxy.mjs stdio
 *   TOOLS=2000 PORT=3000 node bench/servers/emcp-proxy.mjs http   # stateless, 127.0.0.1:$PORT/mcp
 */
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { proxy } from 'emcp/proxy'
import { freePort } from '../../scripts/free-port.mjs'
import { port, toolCount } from './contract.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const bench = join(root, 'dist', 'examples', 'bench.js')
const env = { PATH: process.env.PATH ?? '', TOOLS: String(toolCount()) }

/** The upstream over stateless HTTP on a free port, in a child that exits when its stdin closes. */
const httpUpstream = async () => {
  const upstreamPort = await freePort()
  const code = `process.stdin.on('end', () => process.exit(0)); process.stdin.resume();
    const { benchServer } = await import(${JSON.stringify(`file://${bench}`)});
    const { serveHttp } = await import('emcp/http');
    await serveHttp(benchServer(${toolCount()}), { port: ${upstreamPort} });
    process.stderr.write('upstream listening\\n')`
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root, env, stdio: ['pipe', 'ignore', 'pipe'] })
  await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => (String(d).includes('upstream listening') ? resolve() : process.stderr.write(d)))
    child.once('exit', (c) => reject(new Error(`the upstream exited (${c})`)))
  })
  return `http://127.0.0.1:${upstreamPort}/mcp`
}

const mode = process.argv[2] ?? 'stdio'
if (mode === 'stdio') {
  const server = await proxy({ command: process.execPath, args: [bench, 'stdio'], env, cwd: root })
  const { serveStdio } = await import('emcp/stdio')
  await serveStdio(server)
} else if (mode === 'http') {
  const server = await proxy({ url: await httpUpstream() })
  const { serveHttp } = await import('emcp/http')
  const running = await serveHttp(server, { port: port() })
  console.error(`bench server on ${running.url}`)
} else throw new Error(`the mode is stdio or http (got ${mode})`)
