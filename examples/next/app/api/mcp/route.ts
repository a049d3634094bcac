/**
 * The calculator as a Next.js route handler (App Router, `app/api/mcp/route.ts`), on
 * Vercel or any Next host: each HTTP method's export is the fetch handler, typed with the
 * Web-standard Request and Response only. Stateless, as serverless functions are: both eras,
 * 2026-07-28 and 2025-11-25 without sessions. Vercel's router sends the deployment's own
 * host: name it in `allowedHosts` (here from VERCEL_URL and the project's domain).
 *
 * @example
 * // app/api/mcp/route.ts
 * export { GET, POST, DELETE } from 'emcp-example/next/app/api/mcp/route'
 */
import { toFetchHandler } from 'emcp/fetch'
import { calculator } from '../../../../calculator.js'

/** The hosts this deployment answers on: the platform's own name and the public domain. */
const allowedHosts = [process.env.VERCEL_URL, process.env.PUBLIC_HOST].filter((h): h is string => h !== undefined && h !== '')

const handler = toFetchHandler(calculator, allowedHosts.length === 0 ? {} : { allowedHosts })

/** Next calls these with the Web Request; the answer is a Web Response. */
export const POST = (request: Request): Promise<Response> => handler(request)
export const GET = (request: Request): Promise<Response> => handler(request)
export const DELETE = (request: Request): Promise<Response> => handler(request)

/** A stream or a long call must not be cut by a static render: this route is always dynamic. */
export const dynamic = 'force-dynamic'
