/**
 * The benchmark contract through a mount: the server of examples/bench.ts (add plus TOOLS=N
 * filler tools), mounted whole into another server, so that every request goes through the
 * mount (its routing, its merged list, the part's own method table) before the same handler
 * answers. Read through the package's own entry points (the bundles users get).
 *
 *   TOOLS=2000 node bench/servers/emcp-mount.mjs stdio
 *   TOOLS=2000 PORT=3000 node bench/servers/emcp-mount.mjs http   # stateless, 127.0.0.1:$PORT/mcp
 */
import { mount } from 'emcp'
import { benchServer } from '../../dist/examples/bench.js'
import { port, toolCount } from './contract.mjs'

const server = mount([benchServer(toolCount())], { name: 'bench', version: '1.0.0' })

const mode = process.argv[2] ?? 'stdio'
if (mode === 'stdio') {
  const { serveStdio } = await import('emcp/stdio')
  await serveStdio(server)
} else if (mode === 'http') {
  const { serveHttp } = await import('emcp/http')
  const running = await serveHttp(server, { port: port() })
  console.error(`bench server on ${running.url}`)
} else throw new Error(`the mode is stdio or http (got ${mode})`)
