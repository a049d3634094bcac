/**
 * The lists of a mount (`tools/list`, `prompts/list`, `resources/list`,
 * `resources/templates/list`): every part's list for the session, each entry renamed into its
 * part's namespace (once per page the part answers, not per request), filtered by what the
 * caller may see, and paged. The pages of one view (one set of visible entries) are
 * serialised once and kept: two callers who see the same entries share them, and a request
 * rebuilds nothing but the test of each entry. Internal.
 *
 * @example
 * import { mergedList } from './lists.js'
 * // const list = mergedList(spec, renamedLists(spec, parts), 50, visible)
 * // list(request, session) // Right(page), now or later
 */
import * as E from 'fp-ts/lib/Either.js'
import { all, map, type Eventually } from '../util/eventually.js'
import type { Answer } from '../server/feature.js'
import { answerPage, pagesOf } from '../server/pages.js'
import type { Session } from '../server/session.js'
import type { RawJson, Request, RpcError } from '../protocol/jsonrpc.js'
import { entriesOf, gather, type Pages, type Part } from './parts.js'
import { clip } from '../util/clip.js'

// ---------------------------------------------------------------------------------------
// model

/** A listed entry, as JSON. */
export type Entry = { readonly [key: string]: unknown }

/** One kind of list. */
export interface ListSpec {
  readonly method: string
  /** The result's key: `tools`, `prompts`, `resources`, `resourceTemplates`. */
  readonly key: string
  /** True when the part serves this list at all (its capabilities say so). */
  readonly serves: (part: Part) => boolean
  /** The entry as the whole lists it. */
  readonly rename: (part: Part, entry: Entry) => Entry
  /** What makes an entry unique in the list: a name, a URI. */
  readonly idOf: (entry: Entry) => string
}

/** Whether a session sees an entry of a part (the entry as the whole lists it). */
export type Visible = (part: Part, entry: Entry, session: Session) => boolean

/** A part's entries for one session, as the whole lists them, before visibility. */
export interface Listed {
  readonly part: Part
  readonly entries: ReadonlyArray<Entry>
}

// ---------------------------------------------------------------------------------------
// functions

/** The views kept per list; past this many the oldest is dropped. */
const maxViews = 256

/** What reads one list of every part for a session, renamed. */
export type ListReader = (session: Session) => Eventually<E.Either<RpcError, { readonly lists: ReadonlyArray<Listed> }>>

/** Reads and renames the entries of one list from every part that serves it; the first of an id wins. */
export const renamedLists = (spec: ListSpec, parts: ReadonlyArray<Part>): ListReader => {
  const renamed = new WeakMap<object, ReadonlyArray<Entry>>()
  const servers = parts.filter(spec.serves)
  const pageEntries = (part: Part, page: object): ReadonlyArray<Entry> => {
    let out = renamed.get(page)
    if (out === undefined) renamed.set(page, (out = entriesOf(page, spec.key).map((e) => spec.rename(part, e))))
    return out
  }
  // a clash is told once (on stderr), not per request: the first part keeps the name
  const told = new Set<string>()
  const clash = (id: string, first: Part, then: Part): void => {
    if (told.has(id) || told.size > 1000) return
    told.add(id)
    console.error(`emcp: mount: ${spec.key} ${clip(id)} is served by ${first.label} and ${then.label}: the first keeps it`)
  }
  return (session: Session): Eventually<E.Either<RpcError, { readonly lists: ReadonlyArray<Listed> }>> =>
    map(all(servers.map((p) => gather(p, spec.method, spec.key, session))), (outs) => {
      const failed = outs.find(E.isLeft)
      if (failed !== undefined) return failed
      const seen = new Map<string, Part>()
      const lists = servers.map((part, i) => {
        const entries: Entry[] = []
        for (const page of (outs[i] as E.Right<Pages>).right)
          for (const e of pageEntries(part, page)) {
            const id = spec.idOf(e)
            const first = seen.get(id)
            if (first !== undefined) {
              if (first !== part) clash(id, first, part)
              continue
            }
            seen.set(id, part)
            entries.push(e)
          }
        return { part, entries }
      })
      return E.right({ lists })
    })
}

/** The list method of a mount: the merged entries a session sees, paged from the cache of its view. */
export const mergedList = (spec: ListSpec, read: ListReader, pageSize: number | undefined, visible: Visible): ((req: Request, session: Session) => Answer) => {
  // a view is keyed by the entry objects it shows (numbered once each): the renamed entries of a
  // page the part answers again are the same objects, so an unchanged view finds its pages
  const serials = new WeakMap<Entry, number>()
  const views = new Map<string, ReadonlyArray<RawJson>>()
  const serialOf = (e: Entry): number => {
    let n = serials.get(e)
    if (n === undefined) serials.set(e, (n = nextSerial++))
    return n
  }
  return (req, session) =>
    map(read(session), (out) => {
      if (E.isLeft(out)) return out
      const shown = out.right.lists.flatMap(({ part, entries }) => entries.filter((e) => visible(part, e, session)))
      const key = shown.map(serialOf).join(',')
      let pages = views.get(key)
      if (pages === undefined) {
        if (views.size >= maxViews) views.delete(views.keys().next().value as string)
        views.set(key, (pages = pagesOf(spec.key, shown, pageSize)))
      }
      return answerPage(spec.method, spec.key, pages, req.params?.cursor)
    })
}

let nextSerial = 0
