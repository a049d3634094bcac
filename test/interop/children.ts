/**
 * Child processes for the interop tests: the built examples, driven by the official SDK
 * client over stdio and over Streamable HTTP on 127.0.0.1. Every child started here is
 * tracked and killed when the test process exits, whatever happened to the tests.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

export const root = fileURLToPath(new URL('../../', import.meta.url))

/** The compiled example `name` (built by test/interop/setup.ts). */
export const example = (name: string): string => join(root, 'dist', 'examples', `${name}.js`)

/** How a child ended. */
export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

const live = new Set<ChildProcess>()
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL')
})

const track = (child: ChildProcess): Promise<Exit> => {
  live.add(child)
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child)
      resolve({ code, signal })
    })
  })
}

const isRunning = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null

/** Sends `signal`, then SIGKILL after `graceMs`; resolves with how the child ended. */
export const stop = async (child: ChildProcess, exited: Promise<Exit>, signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000): Promise<Exit> => {
  if (isRunning(child)) child.kill(signal)
  const timer = setTimeout(() => {
    if (isRunning(child)) child.kill('SIGKILL')
  }, graceMs)
  try {
    return await exited
  } finally {
    clearTimeout(timer)
  }
}

/** A port that was free on 127.0.0.1 a moment ago. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

/** A client connected to a child, and the child. */
export interface Connection {
  readonly client: Client
  readonly child: ChildProcess
  readonly exited: Promise<Exit>
  /** The protocol version the client negotiated. */
  readonly protocolVersion: () => string | undefined
  /** What the child wrote to stderr (and, for HTTP, stdout) so far, for failure messages. */
  readonly output: () => string
  /** Closes the client and makes sure the child is gone. */
  readonly dispose: () => Promise<void>
}

const newClient = (): Client => new Client({ name: 'emcp-interop', version: '0.0.0' })

/**
 * Spawns `node <script> ...args` through the SDK's StdioClientTransport and connects
 * `client` (by default one that declares no capabilities).
 */
export const connectStdio = async (
  script: string,
  args: ReadonlyArray<string>,
  env: Record<string, string> = {},
  client: Client = newClient(),
): Promise<Connection> => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [script, ...args], env, cwd: root, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  // the SDK tells HTTP transports the negotiated version through this optional hook
  let negotiated: string | undefined
  Object.assign(transport, { setProtocolVersion: (v: string) => (negotiated = v) })
  await client.connect(transport)
  // the SDK keeps the process private; the tests need its exit code
  const child = (transport as unknown as { _process?: ChildProcess })._process
  if (child === undefined) throw new Error(`stdio child is not running; stderr: ${stderr}`)
  const exited = track(child)
  return {
    client,
    child,
    exited,
    protocolVersion: () => negotiated,
    output: () => stderr,
    dispose: async () => {
      await client.close().catch(() => {})
      await stop(child, exited, 'SIGKILL')
    },
  }
}

/** A child HTTP server that printed its URL. */
export interface Listening {
  readonly url: string
  readonly child: ChildProcess
  readonly exited: Promise<Exit>
  /** Everything it printed so far, stdout and stderr. */
  readonly output: () => string
}

/**
 * Spawns an HTTP example on a free port of 127.0.0.1 and waits until it prints its URL;
 * a port taken between the probe and the listen gets another try.
 */
export const spawnListening = async (
  script: string,
  args: (port: number) => ReadonlyArray<string>,
  env: (port: number) => Record<string, string> = () => ({}),
  waitMs = 30_000,
): Promise<Listening> => {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/mcp`
    const child = spawn(process.execPath, [script, ...args(port)], {
      cwd: root,
      env: { ...process.env, ...env(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = track(child)
    let output = ''
    const listening = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), waitMs)
      const onData = (chunk: Buffer): void => {
        output += chunk.toString()
        if (output.includes(url)) {
          clearTimeout(timer)
          resolve(true)
        }
      }
      child.stdout.on('data', onData)
      child.stderr.on('data', onData)
      void exited.then(() => {
        clearTimeout(timer)
        resolve(false)
      })
    })
    if (listening) return { url, child, exited, output: () => output }
    await stop(child, exited, 'SIGKILL')
    if (attempt < 3 && output.includes('EADDRINUSE')) continue
    throw new Error(`${script} did not listen on ${url}; output:\n${output}`)
  }
}

/**
 * Spawns an HTTP example on a free port of 127.0.0.1, waits until it prints its URL, and
 * connects the SDK's StreamableHTTPClientTransport to it.
 */
export const connectHttp = async (
  script: string,
  args: (port: number) => ReadonlyArray<string>,
  env: (port: number) => Record<string, string> = () => ({}),
): Promise<Connection> => {
  const { url, child, exited, output } = await spawnListening(script, args, env)
  const transport = new StreamableHTTPClientTransport(new URL(url))
  const client = newClient()
  try {
    await client.connect(transport)
  } catch (e) {
    await stop(child, exited, 'SIGKILL')
    throw e
  }
  return {
    client,
    child,
    exited,
    protocolVersion: () => transport.protocolVersion,
    output,
    dispose: async () => {
      await client.close().catch(() => {})
      await stop(child, exited, 'SIGKILL')
    },
  }
}

// ---------------------------------------------------------------------------------------
// waiting and reading results

/** The text of each block of a tool result's content. */
export const texts = (content: unknown): string[] =>
  (content as ReadonlyArray<{ readonly type: string; readonly text?: string }>).map((b) => b.text ?? '')

/** A pause. */
export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits (at most `ms`) until `check` holds. */
export const until = async (check: () => boolean, what: string, ms = 15_000): Promise<void> => {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await delay(5)
  }
}

/** The `emcp` command line (bin/emcp.js, which runs the built bundle). */
export const emcpBin = join(root, 'bin', 'emcp.js')
