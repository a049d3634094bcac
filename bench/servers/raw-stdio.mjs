/**
 * The raw ceiling over stdio: bare newline-delimited JSON-RPC with readline and
 * JSON.parse/stringify, no validation, the same answers as the MCP servers. Answers produced
 * while one chunk of input is read go out in one write.
 */
import { createInterface } from 'node:readline'
import { dispatch } from './raw-core.mjs'

let queued = []
const flush = () => {
  const text = queued.join('')
  queued = []
  process.stdout.write(text)
}
createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  if (line === '') return
  let msg
  try {
    msg = JSON.parse(line)
  } catch {
    msg = undefined
  }
  const out = dispatch(msg)
  if (out === undefined) return
  if (queued.length === 0) process.nextTick(flush)
  queued.push(out + '\n')
})
