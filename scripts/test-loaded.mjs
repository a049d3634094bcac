// `npm run test:loaded`: the whole suite (`npm test`) while two busy-loop processes occupy
// both cores of the development machine, so that a test that leans on the clock fails here
// rather than on a busy CI. The busy loops are killed whatever happens (the suite ends,
// fails, or this script is interrupted); the exit status is the suite's, and the last line
// repeats its tally.
import { spawn } from 'node:child_process'

// each loop also ends by itself once its parent is gone (a SIGKILL reaches no handler here):
// it looks at its parent's pid every few million turns
const loop = 'const p = process.ppid; for (let i = 0; ; i++) if ((i & 0xffffff) === 0 && process.ppid !== p) process.exit(0)'
const busy = [0, 1].map(() => spawn(process.execPath, ['-e', loop], { stdio: 'ignore' }))
const stopBusy = () => {
  for (const b of busy) if (b.exitCode === null && b.signalCode === null) b.kill('SIGKILL')
}
process.on('exit', stopBusy)

// the suite in a process group of its own, so that an interruption ends all of it (npm, vitest, its workers)
const suite = spawn('npm', ['test'], { stdio: ['ignore', 'pipe', 'inherit'], detached: true })
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(signal, () => {
    stopBusy()
    try {
      process.kill(-suite.pid, 'SIGTERM')
    } catch {
      // already gone
    }
    process.exit(1)
  })
let tail = ''
suite.stdout.on('data', (chunk) => {
  process.stdout.write(chunk)
  tail = (tail + chunk.toString()).slice(-8000)
})
suite.on('error', (e) => {
  console.error(`test:loaded: could not run npm test: ${e.message}`)
  process.exit(1)
})
suite.on('close', (code, signal) => {
  stopBusy()
  const tally = tail
    .split('\n')
    .filter((l) => /^\d+ passed, \d+ failed/.test(l))
    .pop()
  console.log(`\nnpm test under two busy loops${signal === null ? '' : ` (ended by ${signal})`}:`)
  console.log(tally ?? '0 passed, 1 failed')
  process.exit(code ?? 1)
})
