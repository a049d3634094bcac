/**
 * A named statement run again on a `pg` connection that has prepared it: Bind, Execute and
 * Sync only, its rows built from the columns its first run described. `pg` itself sends a
 * Describe on every run, copies the query's config, and rebuilds the row template and the
 * type parsers from the answer; for a tool call that was most of the driver's CPU, and the
 * Describe is work for PostgreSQL too. A prepared statement's columns cannot change while it
 * lives (PostgreSQL refuses the run instead: "cached plan must not change result type"), so
 * the remembered ones are what a Describe would say, and the rows are built as `pg` builds
 * them: the same objects, the same parsers, the same order, the last of two equal names.
 *
 * @example
 * import { remember, rerun } from './prepared.js'
 * // after client.query({ name, text, values }, cb) answered r: remember(client, name, r)
 * const sent = rerun(client, name, text, ['{"a":1}', '', ''], (e, r) => console.log(e ?? r?.rows))
 * // sent false: not prepared there yet (or not a pg client): run it the usual way
 */
import type { DriverResult, Field, PgCallback } from './database.js'

// ---------------------------------------------------------------------------------------
// model

/** The columns of a statement, as its first run described them, with what reads each one. */
interface Shape {
  readonly fields: Field[]
  readonly parsers: ReadonlyArray<(text: string) => unknown>
  /** Each column name once, null, in column order: every row starts as a copy of it, as in `pg`. */
  readonly empty: { readonly [column: string]: null }
}

/** The parts of a `pg` connection (the wire under a client) used here. */
interface Wire {
  readonly parsedStatements: { readonly [name: string]: string | undefined }
  readonly stream: { cork?: () => void; uncork?: () => void }
  bind(config: { readonly statement: string; readonly values: ReadonlyArray<string | null> }): void
  execute(config: { readonly portal: string }): void
  sync(): void
  sendCopyFail(message: string): void
}

// ---------------------------------------------------------------------------------------
// functions

/** Keeps the columns of `name`'s answer `r` for the next runs on `client`, when `pg` says how it read them. */
export const remember = (client: object, name: string, r: DriverResult): void => {
  const { fields, _parsers: parsers } = r as DriverResult & { readonly _parsers?: ReadonlyArray<(text: string) => unknown> }
  // text columns only, each with its parser (no rows: pg made none; binary columns are read otherwise)
  if (fields === undefined || (fields.length > 0 && (parsers?.length !== fields.length || fields.some((f) => (f as { format?: string }).format !== 'text')))) return
  const empty: { [column: string]: null } = {}
  for (const f of fields) empty[f.name] = null
  let known = shapes.get(client)
  if (known === undefined) shapes.set(client, (known = new Map()))
  if (known.size >= 1024) known.clear()
  known.set(name, { fields, parsers: parsers ?? [], empty })
}

/**
 * Runs the statement `name` (text `sql`) again on `client`, answering `cb`, when that
 * connection has prepared it and its columns are known, its values are plain (textsOf), and the
 * client reads text results one query at a time; false when it did not (run it as usual).
 */
export const rerun = (client: object, name: string, sql: string, values: ReadonlyArray<unknown>, cb: PgCallback<DriverResult>): boolean => {
  const shape = shapes.get(client)?.get(name)
  if (shape === undefined) return false
  const { connection, binary, pipeline, query } = client as { connection?: Partial<Wire>; binary?: unknown; pipeline?: unknown; query?: unknown }
  if (connection?.parsedStatements?.[name] !== sql || binary === true || pipeline === true || typeof connection.bind !== 'function' || typeof query !== 'function') return false
  const text = textsOf(values)
  if (text === undefined) return false
  // pg queues an object with a submit method as it is, as it does pg-cursor's
  const run = new Rerun(name, text, shape, cb)
  try {
    query.call(client, run)
  } catch (e) {
    run.handleError(e)
  }
  return true
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * The values as `pg` would send them, when each is text, a number, a boolean, a bigint or
 * nothing (`pg` sends these as `toString()` gives, and null for nothing); else undefined
 * (objects, dates, buffers, arrays: `pg` converts those itself).
 */
const textsOf = (values: ReadonlyArray<unknown>): Array<string | null> | undefined => {
  const out: Array<string | null> = []
  for (const v of values) {
    if (typeof v === 'string') out.push(v)
    else if (v === null || v === undefined) out.push(null)
    else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') out.push(String(v))
    else return undefined
  }
  return out
}

// by client, then statement name: a connection that goes away takes its statements with it
const shapes = new WeakMap<object, Map<string, Shape>>()

/**
 * One run, in the shape `pg` expects of a query it is given (what pg-cursor does): it
 * submits itself, hears the answer's messages, and calls `callback` once (a `pg` read
 * timeout wraps `callback`, so it is read at the time of calling).
 */
class Rerun {
  readonly text = undefined
  rows: Array<Record<string, unknown>> = []
  failure: unknown = undefined

  constructor(
    readonly name: string,
    readonly values: ReadonlyArray<string | null>,
    readonly shape: Shape,
    public callback: PgCallback<DriverResult> | undefined,
  ) {}

  submit(connection: Wire): null {
    // one write for the three messages, as pg does for its own
    connection.stream.cork?.()
    try {
      connection.bind({ statement: this.name, values: this.values })
      connection.execute({ portal: '' })
      connection.sync()
    } finally {
      connection.stream.uncork?.()
    }
    return null
  }

  handleDataRow(msg: { readonly fields: ReadonlyArray<string | null> }): void {
    if (this.failure !== undefined) return
    const { fields, parsers, empty } = this.shape
    const row: Record<string, unknown> = { ...empty }
    try {
      for (let i = 0; i < msg.fields.length; i++) {
        const text = msg.fields[i] as string | null
        row[(fields[i] as Field).name] = text === null ? null : (parsers[i] as (t: string) => unknown)(text)
      }
    } catch (e) {
      // as pg does: the rest of the answer is read, and the run fails when it ends
      this.failure = e
      return
    }
    this.rows.push(row)
  }

  handleError(e: unknown): void {
    this.answer(this.failure ?? e)
  }

  handleReadyForQuery(): void {
    this.answer(this.failure, { rows: this.rows, fields: this.shape.fields })
  }

  handleCopyInResponse(connection: Wire): void {
    connection.sendCopyFail('No source stream defined')
  }

  // the messages that need nothing here: no Describe was sent, and there are no pages or copies
  handleRowDescription(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}

  private answer(e: unknown, r?: DriverResult): void {
    const cb = this.callback
    this.callback = undefined
    if (cb === undefined) return
    if (e !== undefined) cb(e as Error)
    else cb(undefined, r)
  }
}
