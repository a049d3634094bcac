/**
 * SQL text as PostgreSQL's own client reads it: tokens (comments, strings, dollar quotes,
 * quoted identifiers, `$n` parameters), statements split on `;` the way psql splits them
 * (a `BEGIN ATOMIC ... END` function body stays whole), each with the line it starts on, and
 * the comments of a file. One pass, linear in the text; nothing here runs SQL.
 *
 * @example
 * import { scanSql } from './sql-text.js'
 * const { comments, statements } = scanSql('-- @mcp Finds.\nselect $1::int; select 2')
 * // comments: [' @mcp Finds.'], statements: [{ code: 'select $1::int', line: 2, ... }, { code: 'select 2', line: 2, ... }]
 */

// ---------------------------------------------------------------------------------------
// model

/** A piece of SQL text: what it is and where (`[start, end)` in the text). */
export interface Token {
  readonly kind: 'line-comment' | 'block-comment' | 'string' | 'dollar' | 'quoted' | 'word' | 'param' | 'semicolon' | 'space' | 'other'
  readonly start: number
  readonly end: number
}

/** One statement of a script or file. */
export interface SqlStatement {
  /** The statement as written, comments included, without its `;`. */
  readonly source: string
  /** The statement without its comments (each replaced by a space): safe to wrap in other SQL. */
  readonly code: string
  /** The 1-based line of the file where it starts. */
  readonly line: number
}

/** A file or script, read. */
export interface ScannedSql {
  /** The text of every comment, line by line, without the comment marks. */
  readonly comments: ReadonlyArray<string>
  readonly statements: ReadonlyArray<SqlStatement>
}

// ---------------------------------------------------------------------------------------
// functions

/** Splits SQL text into tokens; an unterminated string or comment runs to the end. */
export function* tokens(text: string): Generator<Token> {
  let i = 0
  const n = text.length
  while (i < n) {
    const start = i
    const c = text[i] as string
    const next = text[i + 1]
    let kind: Token['kind']
    if (c === '-' && next === '-') {
      const nl = text.indexOf('\n', i)
      i = nl === -1 ? n : nl
      kind = 'line-comment'
    } else if (c === '/' && next === '*') {
      i = blockCommentEnd(text, i)
      kind = 'block-comment'
    } else if (c === "'") {
      i = quotedEnd(text, i + 1, "'", isEscapeString(text, i))
      kind = 'string'
    } else if (c === '"') {
      i = quotedEnd(text, i + 1, '"', false)
      kind = 'quoted'
    } else if (c === '$') {
      const m = /^\$(?:[0-9]+|([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$)/.exec(text.slice(i, i + 64))
      if (m !== null && m[0].endsWith('$')) {
        const end = text.indexOf(m[0], i + m[0].length)
        i = end === -1 ? n : end + m[0].length
        kind = 'dollar'
      } else if (m !== null) {
        i += m[0].length
        kind = 'param'
      } else {
        i++
        kind = 'other'
      }
    } else if (c === ';') {
      i++
      kind = 'semicolon'
    } else if (/\s/.test(c)) {
      while (i < n && /\s/.test(text[i] as string)) i++
      kind = 'space'
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      while (i < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(text[i] as string)) i++
      kind = 'word'
    } else {
      i++
      kind = 'other'
    }
    yield { kind, start, end: i }
  }
}

/** The comments and the statements of a file or script. */
export const scanSql = (text: string): ScannedSql => {
  const comments: string[] = []
  const statements: SqlStatement[] = []
  let line = 1
  let current: { start: number; line: number; code: string[]; depth: Depth } | undefined
  const finish = (end: number): void => {
    if (current !== undefined) statements.push({ source: text.slice(current.start, end).trim(), code: current.code.join('').trim(), line: current.line })
    current = undefined
  }
  for (const t of tokens(text)) {
    const piece = text.slice(t.start, t.end)
    if (t.kind === 'line-comment') comments.push(piece.slice(2).replace(/\r$/, ''))
    if (t.kind === 'block-comment') comments.push(...blockCommentLines(piece))
    const significant = t.kind !== 'space' && t.kind !== 'line-comment' && t.kind !== 'block-comment'
    if (t.kind === 'semicolon' && (current === undefined || current.depth.begin === 0)) finish(t.start)
    else if (significant || current !== undefined) {
      current ??= { start: t.start, line, code: [], depth: newDepth() }
      current.code.push(significant || t.kind === 'space' ? piece : ' ')
      if (t.kind === 'word' || t.kind === 'other') track(current.depth, piece)
    }
    for (let k = piece.indexOf('\n'); k !== -1; k = piece.indexOf('\n', k + 1)) line++
  }
  finish(text.length)
  return { comments, statements: statements.filter((s) => s.code !== '') }
}

/** The 1-based line, within `text`, of the 1-based character position PostgreSQL reports. */
export const lineAt = (text: string, position: number): number => {
  const before = Array.from(text).slice(0, Math.max(0, position - 1)).join('')
  return before.split('\n').length
}

/** `code` with each `$n` parameter token replaced by `f(n)` (strings, quotes and comments untouched). */
export const replaceParams = (code: string, f: (n: number) => string): string => {
  let out = ''
  for (const t of tokens(code)) out += t.kind === 'param' ? f(Number(code.slice(t.start + 1, t.end))) : code.slice(t.start, t.end)
  return out
}

/**
 * NpgsqlRest's named parameters: each `:name` (outside strings, quotes and comments; not a
 * `::` cast, not `:=`) becomes `$n`, one number per name (case-insensitive) in the order of
 * first use. Also says whether `code` has `$n` parameters of its own (the two do not mix).
 */
export const namedParams = (code: string): { readonly code: string; readonly names: ReadonlyArray<string>; readonly positional: boolean } => {
  const all = [...tokens(code)]
  const names: string[] = []
  let out = ''
  let positional = false
  for (let i = 0; i < all.length; i++) {
    const t = all[i] as Token
    const next = all[i + 1]
    const piece = code.slice(t.start, t.end)
    positional ||= t.kind === 'param'
    const named = piece === ':' && code[t.start - 1] !== ':' && next?.kind === 'word' && next.start === t.end
    if (!named) {
      out += piece
      continue
    }
    const name = code.slice(next.start, next.end)
    let n = names.findIndex((x) => x.toLowerCase() === name.toLowerCase())
    if (n === -1) n = names.push(name) - 1
    out += `$${n + 1}`
    i++
  }
  return { code: out, names, positional }
}

// ---------------------------------------------------------------------------------------
// internals

/** psql's heuristic for `CREATE [OR REPLACE] FUNCTION|PROCEDURE ... BEGIN ATOMIC ... END`. */
interface Depth {
  words: string
  parens: number
  begin: number
}

const newDepth = (): Depth => ({ words: '', parens: 0, begin: 0 })

const track = (d: Depth, piece: string): void => {
  if (piece === '(') d.parens++
  else if (piece === ')') d.parens = Math.max(0, d.parens - 1)
  if (!/^[A-Za-z_]/.test(piece)) return
  const w = piece.toLowerCase()
  // the initials of the first words that matter: c f, c p, c o r f, c o r p
  if (d.words.length < 4 && ['create', 'function', 'procedure', 'or', 'replace'].includes(w)) d.words += w[0]
  else if (d.words.length < 4) d.words += '.'
  const routine = /^c(?:f|p|orf|orp)/.test(d.words)
  if (!routine || d.parens > 0) return
  if (w === 'begin') d.begin++
  else if (w === 'case' && d.begin >= 1) d.begin++
  else if (w === 'end' && d.begin > 0) d.begin--
}

/** The end of a (nested) block comment that starts at `i`. */
const blockCommentEnd = (text: string, i: number): number => {
  let depth = 0
  for (let k = i; k < text.length - 1; k++) {
    if (text[k] === '/' && text[k + 1] === '*') {
      depth++
      k++
    } else if (text[k] === '*' && text[k + 1] === '/') {
      depth--
      k++
      if (depth === 0) return k + 1
    }
  }
  return text.length
}

/** The end of a quoted string or identifier whose body starts at `i` (doubled quotes; backslashes in E'' strings). */
const quotedEnd = (text: string, i: number, quote: string, backslashes: boolean): number => {
  for (let k = i; k < text.length; k++) {
    const c = text[k]
    if (backslashes && c === '\\') k++
    else if (c === quote) {
      if (text[k + 1] === quote) k++
      else return k + 1
    }
  }
  return text.length
}

/** An `E'...'` string: the quote follows a lone `E` or `e`. */
const isEscapeString = (text: string, quoteAt: number): boolean =>
  quoteAt > 0 && /[eE]/.test(text[quoteAt - 1] as string) && (quoteAt === 1 || !/[A-Za-z0-9_$]/.test(text[quoteAt - 2] as string))

/** The lines of a block comment, without `/*`, `*\/` and the `*` that starts a line of a boxed comment. */
const blockCommentLines = (piece: string): string[] =>
  piece
    .replace(/^\/\*/, '')
    .replace(/\*\/$/, '')
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*\*(?!\/)/, ''))
