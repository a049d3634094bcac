/**
 * The protocol revisions emcp speaks, in two eras: the 2025-11-25 family (legacy: an
 * `initialize` handshake opens a conversation) and 2026-07-28 (modern: every request
 * carries its revision in `_meta`), and how a requested revision is negotiated.
 *
 * @example
 * import { negotiate, isModernVersion } from 'emcp'
 * negotiate('2025-06-18')        // '2025-06-18'
 * negotiate('1999-01-01')        // '2025-11-25': an unsupported request gets our latest
 * isModernVersion('2026-07-28')  // true
 */

/** Every revision of the 2025-11-25 family served, newest first (what `initialize` negotiates). */
export const supportedVersions = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const

/** A revision of the 2025-11-25 family that emcp speaks. */
export type ProtocolVersion = (typeof supportedVersions)[number]

/** Every modern (per-request `_meta`) revision served, newest first. */
export const modernVersions = ['2026-07-28'] as const

/** A modern revision emcp speaks. */
export type ModernVersion = (typeof modernVersions)[number]

/** Any revision emcp speaks, of either era. */
export type AnyProtocolVersion = ProtocolVersion | ModernVersion

/** The two eras, each named by its newest revision. */
export type Era = '2025-11-25' | '2026-07-28'

/** The newest revision, offered when a client asks for one we do not speak. */
export const latestVersion: ProtocolVersion = '2025-11-25'

/** The revision an HTTP server assumes when a request carries no `MCP-Protocol-Version`. */
export const assumedHttpVersion: ProtocolVersion = '2025-03-26'

/** True for a revision of the 2025-11-25 family emcp speaks. */
export const isSupportedVersion = (v: unknown): v is ProtocolVersion =>
  (supportedVersions as ReadonlyArray<unknown>).includes(v)

/** True for a modern revision emcp speaks. */
export const isModernVersion = (v: unknown): v is ModernVersion => (modernVersions as ReadonlyArray<unknown>).includes(v)

/** The revisions a server serving `eras` supports, newest first (for `server/discover` and errors). */
export const versionsOf = (eras: ReadonlyArray<Era>): ReadonlyArray<AnyProtocolVersion> => [
  ...(eras.includes('2026-07-28') ? modernVersions : []),
  ...(eras.includes('2025-11-25') ? supportedVersions : []),
]

/** The revision to answer an `initialize` with: the requested one if spoken, else our latest. */
export const negotiate = (requested: unknown): ProtocolVersion => (isSupportedVersion(requested) ? requested : latestVersion)

/** True for revisions that still allowed JSON-RPC batches (removed in 2025-06-18). */
export const batchesAllowed = (v: AnyProtocolVersion): boolean => v === '2025-03-26' || v === '2024-11-05'
