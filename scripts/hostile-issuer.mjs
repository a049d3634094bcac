// The token verifier (`oauth()`) against a broken identity provider, one case per run, each in
// a fresh process so that its peak RSS and its exit code are its own:
//
//   failing   the JWKS answers 500; 50 valid-looking tokens are checked one after the other
//   huge      the JWKS is a 400 MB body
//   stall     the metadata answers 200, then stalls mid-body (time limit 500 ms)
//
//   node scripts/hostile-issuer.mjs [failing|huge|stall] [--json]
//
// Prints, per case: what the checks answered, how often the JWKS was fetched, the time, the
// peak RSS, and the child's exit code (1: the process died). No argument runs the three.
// It runs the built verifier (dist/): build first.
import { spawnSync } from 'node:child_process'
import { createServer } from 'node:http'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = fileURLToPath(import.meta.url)
const root = fileURLToPath(new URL('../', import.meta.url))
const cases = ['failing', 'huge', 'stall']
const [mode, ...flags] = process.argv.slice(2)

/** One case, in this process: the fake identity provider on 127.0.0.1 and the verifier. */
const run = async (which) => {
  const { oauth } = await import(pathToFileURL(`${root}dist/src/auth/index.js`).href)
  const { generateKeyPair, SignJWT } = await import('jose')
  let jwksFetches = 0
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path === '/.well-known/oauth-authorization-server') {
      if (which === 'stall') return void res.writeHead(200, { 'content-type': 'application/json' }).write('{"issuer":"')
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer: origin, jwks_uri: `${origin}/jwks` }))
    }
    if (path !== '/jwks') return res.writeHead(404).end()
    jwksFetches++
    if (which === 'failing') return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}')
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write('{"keys":[],"pad":"')
    const mb = Buffer.alloc(1 << 20, 0x20)
    let sent = 0
    const more = () => {
      while (sent < 400 && !res.destroyed) {
        sent++
        if (!res.write(mb)) return void res.once('drain', more)
      }
      res.end('"}')
    }
    more()
  })
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${http.address().port}`
  const audience = 'http://127.0.0.1:9/mcp'
  const { privateKey } = await generateKeyPair('ES256')
  const token = await new SignJWT({ sub: 'alice', aud: audience, iss: origin }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setExpirationTime('10m').sign(privateKey)
  let peak = process.memoryUsage().rss
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
  const auth = oauth({ issuer: origin, audience, timeoutMs: which === 'stall' ? 500 : 20_000 })
  const answers = {}
  const started = performance.now()
  for (let i = 0; i < (which === 'failing' ? 50 : 1); i++) {
    const r = await auth.check(token).catch((e) => ({ _tag: `thrown ${e?.name ?? e}` }))
    const k = r._tag === 'Left' ? r.left.error : r._tag
    answers[k] = (answers[k] ?? 0) + 1
  }
  const ms = Math.round(performance.now() - started)
  peak = Math.max(peak, process.memoryUsage().rss)
  clearInterval(sampler)
  console.log(JSON.stringify({ case: which, answers, jwksFetches, ms, peakRssMB: Math.round(peak / 2 ** 20) }))
  // a round trip more, so that a rejection nobody handled surfaces before the process ends
  await fetch(`${origin}/other`).then((r) => r.arrayBuffer())
  http.closeAllConnections()
  http.close()
}

if (process.env.HOSTILE_ISSUER_CASE !== undefined) await run(process.env.HOSTILE_ISSUER_CASE)
else {
  const rows = []
  for (const which of mode === undefined || mode.startsWith('--') ? cases : [mode]) {
    if (!cases.includes(which)) throw new Error(`unknown case ${which}: one of ${cases.join(', ')}`)
    const child = spawnSync(process.execPath, [here], { env: { ...process.env, HOSTILE_ISSUER_CASE: which }, encoding: 'utf8', timeout: 120_000 })
    const line = child.stdout.split('\n').find((l) => l.startsWith('{'))
    rows.push({ ...(line === undefined ? { case: which } : JSON.parse(line)), exitCode: child.status })
  }
  if ([mode, ...flags].includes('--json')) console.log(JSON.stringify(rows))
  else for (const r of rows) console.log(`${r.case}: ${JSON.stringify(r.answers)}, ${r.jwksFetches} JWKS fetches, ${r.ms} ms, peak RSS ${r.peakRssMB} MB, exit code ${r.exitCode}`)
}
