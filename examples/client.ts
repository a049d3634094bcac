/**
 * The typed client (`emcp/client`) against the eras example: the same calls over stdio (the
 * client starts `dist/examples/eras.js`) and over Streamable HTTP (it starts the example with
 * `--http` on a free port), in both protocol eras. `greet` asks the user's name: a 2025-11-25
 * server sends an elicitation request, a 2026-07-28 server answers `input_required`, and the
 * same `elicit` callback answers both. Tool names, arguments and results are typed from the
 * server value: `greet` resolves to `{ greeting: string; pid: number }`, `primes` to `number[]`.
 *
 *   node dist/examples/client.js [--name Ada]
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { connect, type Command, type ConnectOptions } from 'emcp/client'
import { erasServer } from './eras.js'
import { runMain } from './main.js'

/** The contracts the client is typed with, and whose results it decodes: the eras server. */
const contracts = erasServer()

const eras = ['2025-11-25', '2026-07-28'] as const
const script = fileURLToPath(new URL('./eras.js', import.meta.url))

/** One round of typed calls through a connected client; what it heard, as lines. */
const exercise = async (target: string | Command, options: ConnectOptions<typeof contracts>): Promise<string[]> => {
  await using client = await connect(target, options)
  const { greeting } = await client.call('greet', { greeting: 'Hello' }) // greeting: string
  const primes = await client.call('primes', { below: 20 }) // primes: number[]
  const era = await client.call('era', {})
  return [`${era.protocolVersion}: ${greeting} primes below 20: ${primes.join(' ')}`]
}

/** Starts the eras example over HTTP on a free port; its URL, and how to stop it. */
const startHttp = (): Promise<{ readonly url: string; readonly stop: () => void }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let seen = ''
    const look = (chunk: Buffer): void => {
      seen += chunk.toString()
      const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(seen)?.[0]
      if (url !== undefined) resolve({ url, stop: () => child.kill('SIGTERM') })
    }
    child.stdout.on('data', look)
    child.stderr.on('data', look)
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the eras example exited (${String(code)}) before listening: ${seen}`)))
  })

const usage = `The typed client against the eras example, over stdio and HTTP, in both protocol eras.

  node dist/examples/client.js [--name Ada]`

runMain(import.meta.url, { usage, options: { name: { type: 'string', default: 'Ada' } } }, async ({ name }) => {
  // the callback that answers the server's question, whichever era asks it
  const elicit: ConnectOptions['elicit'] = async (request) => {
    process.stderr.write(`the server asks: ${request.message}\n`)
    return { action: 'accept', content: { name } }
  }
  for (const protocolVersion of eras) {
    const lines = await exercise({ command: process.execPath, args: [script], stderr: 'ignore' }, { contracts, protocolVersion, elicit })
    process.stdout.write(`stdio ${lines.join('\n')}\n`)
  }
  const http = await startHttp()
  try {
    for (const protocolVersion of eras) process.stdout.write(`http  ${(await exercise(http.url, { contracts, protocolVersion, elicit })).join('\n')}\n`)
  } finally {
    http.stop()
  }
})
