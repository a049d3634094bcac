/**
 * Visibility: which tools, prompts and resources a caller sees, and so may call, get or read.
 * Entries carry tags (`tags` on a tool, prompt, resource or template; listed in `_meta` under
 * `emcp/tags`); a mount, or one mounted part, includes or excludes by tag and may ask
 * `enabled(ctx)` per request, seeing the client's info and capabilities, the caller's identity
 * and scopes. Per-session switches (`enableFor`, `disableFor` of a mount) come on top.
 *
 * @example
 * import { visibleBy } from './visibility.js'
 * const admin = visibleBy({ exclude: ['admin'] })
 * // admin(ctx) is false for an entry tagged 'admin'
 */
import type { ClientInfo, Identity, Session } from '../server/session.js'
import { checkTags } from '../util/tags.js'

// ---------------------------------------------------------------------------------------
// model

/** The kinds of entry a mount serves. */
export type EntryKind = 'tool' | 'prompt' | 'resource'

/** What `enabled(ctx)` sees of one entry and one request. */
export interface VisibilityContext {
  readonly kind: EntryKind
  /** The entry's name in the whole server (a resource's or template's name; `uri` says which it is). */
  readonly name: string
  /** A resource's URI or a template's URI template. */
  readonly uri?: string
  readonly tags: ReadonlyArray<string>
  readonly session: Readonly<Session>
  readonly clientInfo: ClientInfo | undefined
  readonly clientCapabilities: { readonly [key: string]: unknown } | undefined
  /** Who is calling; undefined when anonymous. */
  readonly identity: Identity | undefined
  /** The scopes the caller's token grants (`identity.scopes`), `[]` when none. */
  readonly scopes: ReadonlyArray<string>
}

/** Who sees what: by tag, and per request. */
export interface Visibility {
  /** Only entries with at least one of these tags (absent: every entry). */
  readonly include?: ReadonlyArray<string>
  /** No entry with any of these tags (applied after `include`). */
  readonly exclude?: ReadonlyArray<string>
  /** Asked per request and entry; false hides it from this caller (and refuses its call, get or read). */
  readonly enabled?: (ctx: VisibilityContext) => boolean
}

// ---------------------------------------------------------------------------------------
// functions

/** The test a `Visibility` makes of one entry (true: visible); `undefined` when it lets everything through. */
export const visibleBy = (v: Visibility | undefined): ((ctx: VisibilityContext) => boolean) | undefined => {
  if (v === undefined) return undefined
  checkTags('include', v.include)
  checkTags('exclude', v.exclude)
  const include = v.include === undefined ? undefined : new Set(v.include)
  const exclude = v.exclude === undefined || v.exclude.length === 0 ? undefined : new Set(v.exclude)
  const enabled = v.enabled
  if (include === undefined && exclude === undefined && enabled === undefined) return undefined
  return (ctx) =>
    (include === undefined || ctx.tags.some((t) => include.has(t))) && (exclude === undefined || !ctx.tags.some((t) => exclude.has(t))) && (enabled === undefined || enabled(ctx) === true)
}

/** The context of one entry for one session. */
export const contextOf = (kind: EntryKind, name: string, tags: ReadonlyArray<string>, session: Session, uri?: string): VisibilityContext => ({
  kind,
  name,
  ...(uri === undefined ? {} : { uri }),
  tags,
  session,
  clientInfo: session.clientInfo,
  clientCapabilities: session.clientCapabilities,
  identity: session.identity,
  scopes: session.identity?.scopes ?? [],
})
