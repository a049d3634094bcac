/**
 * Deno, Bun and workerd as test servers: each serves a bundle of examples/runtimes/ on a
 * free port of 127.0.0.1 and is stopped by its process id. The binaries are the npm
 * packages' (devDependencies); one that is absent is reported, and the caller skips, except
 * under CI=true, where its absence fails.
 *
 * @example
 * import { runtimeBinary, startRuntime } from '../support/runtimes.js'
 * const deno = await startRuntime('deno', '.cache/runtimes/serve.mjs', ['--stateless'])
 * // deno.url: http://127.0.0.1:<port>/mcp
 * await deno.stop()
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, existsSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** The runtimes the tests start. */
export type Runtime = 'deno' | 'bun' | 'workerd'

/** A runtime serving a bundle. */
export interface Running {
  readonly url: string
  readonly stop: () => Promise<void>
}

/** The runtime's binary from node_modules/.bin, or undefined when it is not installed here. */
export const runtimeBinary = (runtime: Runtime): string | undefined => {
  const bin = join(root, 'node_modules', '.bin', runtime)
  return existsSync(bin) ? bin : undefined
}

/** How a runtime is started besides its arguments. */
export interface StartOptions {
  /** workerd: keep Durable Objects' storage in this folder (it outlives the process) instead of in memory. */
  readonly durableDir?: string
}

/** Starts `runtime` on `bundle` (an .mjs file) and resolves once it listens; rejects after 60 s or when it exits first. */
export const startRuntime = async (runtime: Runtime, bundle: string, args: ReadonlyArray<string> = [], options: StartOptions = {}): Promise<Running> => {
  const bin = runtimeBinary(runtime)
  if (bin === undefined) throw new Error(`${runtime} is not installed (node_modules/.bin/${runtime})`)
  const port = runtime === 'workerd' ? await freePort() : 0
  const argv =
    runtime === 'deno'
      ? ['run', '--allow-net', '--no-prompt', bundle, '--port', '0', ...args]
      : runtime === 'bun'
        ? [bundle, '--port', '0', ...args]
        : ['serve', workerdConfig(bundle, port, args, options.durableDir), '--verbose']
  const child = spawn(bin, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } })
  const url = await listening(child, runtime, port)
  return { url, stop: () => stopChild(child) }
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * A capnp configuration serving `bundle` as a module worker on `port`, without `nodejs_compat`;
 * `args` are `NAME=value` text bindings, and `NAME=durable:Class` binds a Durable Object
 * namespace of the exported class `Class`, its objects' storage kept in memory, or in
 * `durableDir` (a disk directory service) when given.
 */
const workerdConfig = (bundle: string, port: number, args: ReadonlyArray<string>, durableDir?: string): string => {
  const split = args.map((a) => {
    const [name, ...value] = a.split('=')
    return { name: name as string, value: value.join('=') }
  })
  const classes = split.filter((b) => b.value.startsWith('durable:')).map((b) => ({ name: b.name, className: b.value.slice('durable:'.length) }))
  const bindings = split.map((b) =>
    b.value.startsWith('durable:')
      ? `(name = ${JSON.stringify(b.name)}, durableObjectNamespace = ${JSON.stringify(b.value.slice('durable:'.length))})`
      : `(name = ${JSON.stringify(b.name)}, text = ${JSON.stringify(b.value)})`,
  )
  const durable =
    classes.length === 0
      ? ''
      : `
  durableObjectNamespaces = [ ${classes.map((c) => `(className = ${JSON.stringify(c.className)}, uniqueKey = ${JSON.stringify(`emcp-test-${c.className}`)})`).join(', ')} ],
  durableObjectStorage = ${durableDir === undefined ? '(inMemory = void)' : '(localDisk = "durable-disk")'},`
  const file = join(dirname(bundle), `${basename(bundle, '.mjs')}-${port}.capnp`)
  writeFileSync(
    file,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .mainWorker)${durableDir === undefined ? '' : `, (name = "durable-disk", disk = (path = ${JSON.stringify(durableDir)}, writable = true))`} ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const mainWorker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "${basename(bundle)}") ],
  compatibilityDate = "2026-11-01",
  bindings = [ ${bindings.join(', ')} ],${durable}
);
`,
  )
  return file
}

/** Resolves with the URL once the runtime says where it listens (Deno and Bun print it; workerd once it serves the port). */
const listening = (child: ChildProcess, runtime: Runtime, port: number): Promise<string> =>
  new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => fail(new Error(`${runtime} did not listen within 60 s:\n${output}`)), 60_000)
    const fail = (e: Error): void => {
      clearTimeout(timer)
      void stopChild(child)
      reject(e)
    }
    const read = (chunk: Buffer): void => {
      output += chunk.toString()
      const printed = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/i.exec(output)
      if (printed !== null) done(printed[1] as string)
      // workerd --verbose logs its sockets once it serves them
      else if (runtime === 'workerd' && /Listening on|listening|service main/i.test(output)) done(`http://127.0.0.1:${port}/mcp`)
    }
    const done = (url: string): void => {
      clearTimeout(timer)
      child.off('exit', exited)
      child.stdout?.off('data', read)
      child.stderr?.off('data', read)
      // what it says from now on goes to a log beside the bundle, for a failure's post-mortem
      const log = createWriteStream(join(root, '.cache', 'runtimes', `${runtime}.log`))
      log.write(output)
      child.stdout?.pipe(log)
      child.stderr?.pipe(log)
      resolve(url)
    }
    const exited = (code: number | null): void => fail(new Error(`${runtime} exited (${code}) before it listened:\n${output}`))
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.once('exit', exited)
  })

/** Ends the child by its process id and resolves once it is gone. */
const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
  })

/** A port nothing listens on at the moment of asking. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const address = s.address()
      s.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
