/**
 * The protocol revisions of the 2025-11-25 family that emcp speaks, and how a requested
 * revision is negotiated.
 *
 * @example
 * import { negotiate } from 'emcp'
 * negotiate('2025-06-18') // '2025-06-18'
 * negotiate('1999-01-01') // '2025-11-25': an unsupported request gets our latest
 */

/** Every revision served, newest first. */
export const supportedVersions = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const

/** A revision emcp speaks. */
export type ProtocolVersion = (typeof supportedVersions)[number]

/** The newest revision, offered when a client asks for one we do not speak. */
export const latestVersion: ProtocolVersion = '2025-11-25'

/** The revision an HTTP server assumes when a request carries no `MCP-Protocol-Version`. */
export const assumedHttpVersion: ProtocolVersion = '2025-03-26'

/** True for a revision emcp speaks. */
export const isSupportedVersion = (v: unknown): v is ProtocolVersion =>
  (supportedVersions as ReadonlyArray<unknown>).includes(v)

/** The revision to answer an `initialize` with: the requested one if spoken, else our latest. */
export const negotiate = (requested: unknown): ProtocolVersion => (isSupportedVersion(requested) ? requested : latestVersion)

/** True for revisions that still allowed JSON-RPC batches (removed in 2025-06-18). */
export const batchesAllowed = (v: ProtocolVersion): boolean => v === '2025-03-26' || v === '2024-11-05'
