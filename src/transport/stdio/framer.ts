/// <reference types="node" preserve="true" />
/**
 * The stdio line framer: bytes in, one call per newline-delimited line out. It does no I/O
 * and knows nothing of JSON-RPC but how to find the id of a line too long to keep. Partial
 * lines across chunks and CRLF endings are fine; a line longer than `maxLineBytes` is never
 * buffered: it is skipped up to its newline (only its first and last few KiB are kept) and
 * reported as oversized, with its id when that can be read safely from its edges.
 *
 * @example
 * import { lineFramer } from './framer.js'
 * const lines: string[] = []
 * const f = lineFramer(1024, { line: (text) => lines.push(text), oversized: () => {} })
 * f.push(Buffer.from('{"a":1}\r\n{"b"'))
 * f.push(Buffer.from(':2}\n'))
 * f.end() // lines: ['{"a":1}', '{"b":2}']
 */
import { isRequestId, type RequestId } from '../../protocol/jsonrpc.js'

// ---------------------------------------------------------------------------------------
// model

/** Where the framer's lines go. */
export interface FrameSink {
  /** A whole line, without its `\n` or `\r\n`. */
  readonly line: (text: string) => void
  /** A line longer than the limit ended; its id, when it could be read safely, else null. */
  readonly oversized: (id: RequestId | null) => void
}

/** A running framer. */
export interface LineFramer {
  /** Takes the next chunk of input. */
  readonly push: (chunk: Buffer) => void
  /** Input ended: a last line without a newline is still a line. */
  readonly end: () => void
}

// ---------------------------------------------------------------------------------------
// constructors

/** A framer of lines up to `maxLineBytes` bytes. */
export const lineFramer = (maxLineBytes: number, sink: FrameSink): LineFramer => {
  // the start of the current line, when it began in an earlier chunk
  let pending: Buffer[] = []
  let pendingBytes = 0
  // while skipping an over-long line: its edges, to find its id
  let overflow: Overflow | undefined

  const clearPending = (): void => {
    pending = []
    pendingBytes = 0
  }

  const endLine = (buf: Buffer, start: number, nl: number): void => {
    if (overflow === undefined && pendingBytes + (nl - start) > maxLineBytes) overflow = overflowOf([...pending, buf.subarray(start, nl)])
    else if (overflow !== undefined) overflow.keepTail(buf.subarray(Math.max(start, nl - edgeBytes), nl))
    if (overflow !== undefined) {
      const id = overflow.id()
      overflow = undefined
      sink.oversized(id)
    } else if (pendingBytes === 0) sink.line(stripCR(buf.toString('utf8', start, nl)))
    else sink.line(stripCR(Buffer.concat([...pending, buf.subarray(start, nl)]).toString('utf8')))
    if (pending.length > 0) clearPending()
  }

  /** Lines known to be within the limit, decoded together: each is cut from the text, not decoded alone. */
  const wholeLines = (text: string): void => {
    let from = 0
    for (let nl = text.indexOf('\n'); ; nl = text.indexOf('\n', from)) {
      sink.line(stripCR(text.slice(from, nl === -1 ? text.length : nl)))
      if (nl === -1) return
      from = nl + 1
    }
  }

  const push = (buf: Buffer): void => {
    let start = 0
    let nl = buf.indexOf(10)
    // a line begun in an earlier chunk (kept, or being skipped) ends first, counted in bytes
    if (nl !== -1 && (pendingBytes > 0 || overflow !== undefined)) {
      endLine(buf, 0, nl)
      start = nl + 1
      nl = buf.indexOf(10, start)
    }
    if (nl !== -1) {
      const last = buf.lastIndexOf(10)
      // no line up to the last newline can pass the limit when they all fit in it: one decode
      // for all of them (a newline byte is never inside a UTF-8 character, so each line's
      // text is what decoding it alone gives); otherwise each is measured and decoded alone
      if (last - start <= maxLineBytes) {
        wholeLines(buf.toString('utf8', start, last))
        start = last + 1
      } else
        while (nl !== -1) {
          endLine(buf, start, nl)
          start = nl + 1
          nl = buf.indexOf(10, start)
        }
    }
    if (start === buf.length) return
    const rest = start === 0 ? buf : buf.subarray(start)
    if (overflow !== undefined) return overflow.keepTail(rest)
    if (pendingBytes + rest.length > maxLineBytes) {
      // stop buffering at once; the line is reported when it ends
      overflow = overflowOf([...pending, rest])
      return clearPending()
    }
    pending.push(rest)
    pendingBytes += rest.length
  }

  const end = (): void => {
    const skipped = overflow
    const rest = pending
    overflow = undefined
    clearPending()
    if (skipped !== undefined) sink.oversized(skipped.id())
    else if (rest.length > 0) sink.line(stripCR(Buffer.concat(rest).toString('utf8')))
  }

  return { push, end }
}

// ---------------------------------------------------------------------------------------
// internals

/** How much of each end of an over-long line is kept to look for its id. */
const edgeBytes = 4096

/** An over-long line being skipped: its first bytes, and its last ones as they arrive. */
interface Overflow {
  readonly keepTail: (bytes: Buffer) => void
  readonly id: () => RequestId | null
}

const overflowOf = (seen: ReadonlyArray<Buffer>): Overflow => {
  const head = firstBytes(seen, edgeBytes).toString('utf8')
  let tail = Buffer.concat(seen.map((b) => b.subarray(-edgeBytes))).subarray(-edgeBytes)
  return {
    keepTail: (bytes) => {
      tail = Buffer.concat([tail, bytes.subarray(-edgeBytes)]).subarray(-edgeBytes)
    },
    id: () => idOfOversized(head, tail.toString('utf8')),
  }
}

const quotedOrInteger = '(-?\\d+|"(?:[^"\\\\]|\\\\.)*")'
/** `{"id": 7, ...` or `{"jsonrpc": "2.0", "id": 7, ...`: the id as the first member. */
const leadingId = new RegExp(`^\\s*\\{\\s*(?:"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*)?"id"\\s*:\\s*${quotedOrInteger}`)
/** `..., "id": 7}`: the id as the last member of the top-level object. */
const trailingId = new RegExp(`,\\s*"id"\\s*:\\s*${quotedOrInteger}\\s*\\}\\s*$`)

/**
 * The id of a line too long to parse, when it can be read safely: only where it must be the
 * top-level id (first or last member). Otherwise null, as for any unreadable request.
 */
const idOfOversized = (head: string, tail: string): RequestId | null => {
  const found = leadingId.exec(head)?.[1] ?? trailingId.exec(tail)?.[1]
  if (found === undefined) return null
  try {
    const id: unknown = JSON.parse(found)
    return isRequestId(id) ? id : null
  } catch {
    return null
  }
}

/** The first `n` bytes of a sequence of chunks, however small the chunks are. */
const firstBytes = (chunks: ReadonlyArray<Buffer>, n: number): Buffer => {
  const taken: Buffer[] = []
  let size = 0
  for (const c of chunks) {
    if (size >= n) break
    taken.push(c.subarray(0, n - size))
    size += Math.min(c.length, n - size)
  }
  return Buffer.concat(taken)
}

const stripCR = (line: string): string => (line.endsWith('\r') ? line.slice(0, -1) : line)
