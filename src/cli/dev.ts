/**
 * `emcp dev <module>`: serves the module over HTTP (stateful; both eras) with the playground
 * at `/`, and reloads it when the module, a file beside it, or anything it imports changes. The port stays, and
 * so do open pages: they hear `reload` on `/__emcp/events` and reconnect. A change that does
 * not load is shown in the terminal and in the page, and the last good server keeps serving.
 *
 * @example
 * // emcp dev dist/examples/calculator.js --port 3000   → http://127.0.0.1:3000/
 * import { dev } from './dev.js'
 * await dev.run(['dist/examples/calculator.js', '--port', '0'], io)
 */
import { existsSync, statSync } from 'node:fs'
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fromLoopback, playgroundAnswer } from '../transport/http/playground.js'
import { lastOption, parseArgs } from './args.js'
import { listenError, UsageError, type Command, type CommandIO } from './command.js'
import { devEvents, type DevEvents } from './dev-events.js'
import { generations } from './dev-generations.js'
import { compiledPath, isTypeScript } from './load.js'
import { devWatch } from './dev-watch.js'

const help = `Usage: emcp dev <module> [--port N] [--watch DIR]...

Serves the module's default-exported server at http://127.0.0.1:N/mcp (stateful HTTP, both
protocol eras) with the playground at http://127.0.0.1:N/, and loads it again when a file
under the module's directory changes (or under each --watch DIR), or any file the module
imports, wherever it lies (not under node_modules). Open pages stay and
reconnect; a change that fails to load is shown here and in the page while the last good
server keeps serving. Loopback only.

Options:
  --port N        the port (default 3000; 0 picks a free one)
  --watch DIR     watch DIR instead of the module's directory (repeatable)
  --help          this text

Example:
  emcp dev dist/examples/calculator.js --port 3000`

/** The subcommand. */
export const dev: Command = {
  name: 'dev',
  summary: 'Serve a module with the playground, reloading on change',
  help,
  run: async (argv, io) => {
    const args = parseArgs(argv, { options: ['port', 'watch'], switches: [] })
    const [modulePath, ...extra] = args.positionals
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    if (modulePath === undefined) throw new UsageError('which module? Give the path of a JavaScript module that default-exports a server')
    if (isTypeScript(modulePath))
      throw new UsageError(`${modulePath} is TypeScript: compile it (npx tsc --watch beside emcp dev) and give the .js module: ${compiledPath(modulePath, io.cwd)}`)
    const file = resolve(io.cwd, modulePath)
    if (!existsSync(file) || statSync(file).isDirectory()) throw new UsageError(`cannot find module ${modulePath}`)
    const rawPort = lastOption(args, 'port') ?? '3000'
    const port = Number(rawPort)
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number (0-65535), not ${rawPort}`)
    const watched = (args.options.watch ?? [dirname(file)]).map((d) => resolve(io.cwd, d))
    for (const d of watched) if (!existsSync(d)) throw new UsageError(`cannot watch ${d}: no such directory`)
    return devLoop(file, port, watched, io)
  },
}

/** Runs until SIGINT or SIGTERM. */
const devLoop = async (file: string, port: number, watched: ReadonlyArray<string>, io: CommandIO): Promise<number> => {
  const gens = generations(childScript(), file, io.cwd)
  const events = devEvents()
  const server = createServer(handler(gens.port, events))
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(port, '127.0.0.1', () => done())
  }).catch((e: unknown) => {
    throw listenError(e, '127.0.0.1', port)
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  const watching = devWatch(watched, (changed) => void load(`${changed} changed`), io.cwd)
  const load = async (why: string): Promise<void> => {
    const outcome = await gens.reload()
    // what the module imports now, wherever it lies (a failed load's files too: the fix may be in one of them)
    watching.follow([file, ...outcome.files.filter((f) => f !== file)])
    if (outcome.ok) {
      io.err(`emcp dev: generation ${outcome.generation} serving (${why}); playground ${url}, endpoint ${url}mcp\n`)
      events.send('reload', `generation ${outcome.generation}: ${why}`)
    } else {
      const kept = gens.port() === undefined ? 'no server yet; fix it and save' : 'the last good server keeps serving'
      io.err(`emcp dev: ${relative(io.cwd, file)} failed to load (${why}): ${outcome.error}\n  ${kept}\n`)
      events.send('failed', outcome.error)
    }
  }
  await load('start')
  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      done()
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  watching.close()
  events.close()
  gens.close()
  server.closeAllConnections()
  await new Promise<void>((done) => server.close(() => done()))
  return 0
}

/** The requests of the dev server: its events, the playground, and everything else proxied to the serving generation. */
const handler = (port: () => number | undefined, events: DevEvents) => {
  const page = playgroundAnswer({ dev: true })
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0]
    const head = { method: req.method ?? 'GET', path, remoteAddress: req.socket.remoteAddress, header: (name: string) => req.headers[name] as string | undefined }
    // DNS rebinding: a page of another site naming this address gets nothing, the endpoint included
    if (!fromLoopback(head)) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('emcp dev answers loopback requests only')
    if (path === '/__emcp/events') return events.attach(req, res)
    const reply = page(head)
    if (reply === undefined) return proxy(req, res, port())
    res.writeHead(reply.status, reply.headers).end(typeof reply.body === 'string' ? reply.body : '')
  }
}

/** Forwards one request to the serving generation, streams included. */
const proxy = (req: IncomingMessage, res: ServerResponse, port: number | undefined): void => {
  if (port === undefined) return void res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('the module has not loaded yet; see the terminal')
  const out = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${port}` } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers)
    answer.pipe(res)
  })
  out.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('the server is reloading; try again')
    else res.end()
  })
  res.once('close', () => out.destroy())
  req.pipe(out)
}

/** The child entry beside the running bundle (dist/bundle/cli-dev-child.js), or the package's when run from dist/src or the sources. */
const childScript = (): string => {
  for (const place of ['./cli-dev-child.js', '../../bundle/cli-dev-child.js', '../../dist/bundle/cli-dev-child.js']) {
    const path = fileURLToPath(new URL(place, import.meta.url))
    if (existsSync(path)) return path
  }
  throw new UsageError('emcp dev is not built (cli-dev-child.js not found): run `npm run build` in the emcp package', 1)
}
