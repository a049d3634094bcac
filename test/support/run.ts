/**
 * A command run to its end for the package and install tests: its exit code and what it
 * printed, never a rejection (a command that cannot start is code -1).
 *
 * @example
 * const ran = await run('npm', ['pack', '--json'], root) // { code: 0, stdout: '[…]', stderr: '' }
 */
import { spawn } from 'node:child_process'

/** What a command left: its exit code and its two outputs. */
export interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command to its end (killed after `timeoutMs`); never rejects. */
export const run = (cmd: string, args: ReadonlyArray<string>, cwd: string, timeoutMs = 240_000): Promise<Ran> =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.once('error', (e) => resolve({ code: -1, stdout, stderr: stderr + String(e) }))
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
