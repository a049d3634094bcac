/**
 * `npm start` stops when npm is told to stop: SIGTERM or SIGINT sent to the npm process (not
 * to its process group, as a terminal's Ctrl+C would) ends the demo server too, and its port
 * is free again. npm runs the script through a shell that does not pass signals on; the server
 * sees its parent go and stops. `--ignore-scripts` skips the `prestart` build (dist/ is built
 * by the test setup); `-- --port 0` picks a free port. The test waits for npm's output pipe to
 * close, which happens only once every process holding it (npm, the shell, the server) is gone.
 */
import { spawn } from 'node:child_process'
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { root } from '../interop/children.js'

/** Whether something accepts connections on 127.0.0.1:port (one attempt). */
const accepting = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })

/** Runs `npm start` until it prints its URL, sends `signal` to npm alone, and waits for every writer of its output to end. */
const startAndSignal = async (signal: NodeJS.Signals) => {
  // its own process group, so that whatever is left can be ended as a group when the test is over
  const npm = spawn('npm', ['start', '--ignore-scripts', '--', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let out = ''
  npm.stderr.on('data', (c: Buffer) => (out += c.toString()))
  const closed = new Promise<number | null>((resolve) => npm.once('close', (code) => resolve(code)))
  try {
    const port = await new Promise<number>((resolve, reject) => {
      npm.stdout.on('data', (c: Buffer) => {
        out += c.toString()
        const m = /calculator MCP server: http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(out)
        if (m !== null) resolve(Number(m[1]))
      })
      npm.once('close', () => reject(new Error(`npm start ended before it listened:\n${out}`)))
    })
    expect(await accepting(port)).toBe(true)
    npm.kill(signal)
    // a bound on a hang (the old script left the server running, its output open), so that the group is ended below
    let bound: NodeJS.Timeout | undefined
    const hung = new Promise<never>((_, reject) => (bound = setTimeout(() => reject(new Error(`npm start still running after ${signal}:\n${out}`)), 60_000)))
    await Promise.race([closed, hung]).finally(() => clearTimeout(bound))
    return { port, out }
  } finally {
    // on failure: the orphaned server, whatever it is, is in npm's process group
    try {
      if (npm.pid !== undefined) process.kill(-npm.pid, 'SIGKILL')
    } catch {
      // the group is empty: everything stopped
    }
  }
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s sent to npm stops the server and frees its port', async (signal) => {
    const { port, out } = await startAndSignal(signal)
    expect(await accepting(port), out).toBe(false)
  }, 120_000)
})
