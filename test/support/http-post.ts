/**
 * One POST through Node's `http` client, its whole answer read as text: for interop tests
 * that check what goes over the wire byte for byte rather than through an SDK client.
 *
 * @example
 * import { postText } from '../support/http-post.js'
 * const r = await postText(url, { 'content-type': 'application/json' }, JSON.stringify(body))
 * // r.status === 200, r.text is the body
 */
import { request as httpRequest } from 'node:http'

/** POST `body` to `url` with `headers`; resolves with the status and the whole body as text. */
export const postText = (url: string | URL, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => void (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
