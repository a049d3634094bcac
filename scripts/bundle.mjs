// The package's entry points as bundles (dist/bundle), built from tsc's output after
// `npm run build`. Why: a process that imports emcp from dist/src loads about seventy
// modules of its own and fp-ts and io-ts as many small CommonJS files; Node's module loader
// then costs more than everything else at startup (measured: 140 ms against 63 ms bundled
// for the bench server answering one ping). Code splitting keeps one copy of each module
// shared by all entry points, so `emcp`, `emcp/stdio` and `emcp/http` see the same classes.
// The dependencies (ajv, @cfworker/json-schema), the PostgreSQL drivers (loaded on first use)
// and the optional peers jose and @opentelemetry/api stay outside: a user's own bundler
// (wrangler, a Vercel build) follows their static imports from these bundles. So do the
// optional peers loaded lazily on purpose: koffi (emcp/meos), @modelcontextprotocol/client
// (emcp/client), yaml (emcp install goose), esbuild and fflate (emcp bundle).
import { build } from 'esbuild'
import { copyFileSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import { coreAsScript } from './core-script.mjs'

/** Entry name -> tsc output; package.json `exports` point at dist/bundle/<name>.js. */
export const entries = {
  index: 'dist/src/index.js',
  stdio: 'dist/src/transport/stdio.js',
  http: 'dist/src/transport/http.js',
  fetch: 'dist/src/transport/fetch.js',
  workers: 'dist/src/transport/workers.js',
  hono: 'dist/src/transport/http/adapters/hono.js',
  express: 'dist/src/transport/http/adapters/express.js',
  fastify: 'dist/src/transport/http/adapters/fastify.js',
  postgres: 'dist/src/sources/postgres/index.js',
  manifest: 'dist/src/sources/manifest/index.js',
  geometry: 'dist/src/codecs/geometry.js',
  oauth: 'dist/src/auth/index.js',
  otel: 'dist/src/otel/index.js',
  'postgres-store': 'dist/src/stores/postgres.js',
  redis: 'dist/src/stores/redis.js',
  client: 'dist/src/client/index.js',
  meos: 'dist/src/sources/meos/index.js',
  'meos-worker': 'dist/src/sources/meos/worker.js',
  proxy: 'dist/src/sources/proxy/index.js',
  openapi: 'dist/src/sources/openapi/index.js',
  cli: 'dist/src/cli/index.js',
  'cli-main': 'dist/src/cli/main.js',
  'cli-dev-child': 'dist/src/cli/dev-child.js',
  'cli-dev-hooks': 'dist/src/cli/dev-hooks.js',
}

/**
 * fp-ts and io-ts as their ES module builds (the `es6` folders they ship beside `lib`): the
 * sources import the CommonJS paths, which the compiler resolves with their types, but a
 * CommonJS module is bundled whole, wrapped, and its exports copied at load; ES modules let
 * the bundle keep only the functions used.
 */
const esModules = {
  name: 'fp-ts-es6',
  setup(b) {
    b.onResolve({ filter: /^fp-ts\/lib\// }, (args) =>
      b.resolve(args.path.replace('fp-ts/lib/', 'fp-ts/es6/'), { kind: args.kind, resolveDir: args.resolveDir }),
    )
    b.onResolve({ filter: /^io-ts$/ }, (args) => b.resolve('io-ts/es6/index.js', { kind: args.kind, resolveDir: args.resolveDir }))
    b.onLoad({ filter: /[\\/]io-ts[\\/]es6[\\/]index\.js$/ }, async (args) => ({ contents: pureTopLevel(await readFile(args.path, 'utf8')), loader: 'js' }))
  },
}

/**
 * io-ts's module as the bundle can shake it: its top level makes about thirty classes (each an
 * ES5 function called at once) and a codec of most (`new StringType()`, `brand(number, …)`), all
 * free of side effects but not marked so, which kept every one in the core and ran them at
 * each start, though emcp uses a handful (Type, type, partial, number). Marked pure, the unused
 * ones are dropped; a user's own io-ts import is not this copy and keeps all of them.
 */
const pureTopLevel = (source) =>
  source
    .replace(/= \/\*\* @class \*\/ \(function \(/g, '= /* @__PURE__ */ (function (')
    .replace(/^(export var \w+ = )(new \w+\(\)|(?:refinement|brand)\()/gm, '$1/* @__PURE__ */ $2')

/**
 * The entries that also load the core (the `emcp` barrel) first. Why: esbuild puts each module
 * in the chunk of the set of entries that reach it, so a core reached by two dozen entries in
 * varied subsets was cut into about thirty chunks, and the barrel loaded twenty-five of them;
 * Node's module loader costs per file (resolve, read, compile, link), about 50M instructions
 * of the bench server's startup more than one file of the same code. An entry here reaches
 * the whole core, so the core is one chunk. Every user of these imports `emcp` anyway (a
 * server is made with it); the client too: it reaches a fifth of the core (schemas, the
 * in-memory client, the stdio framing), which otherwise sat in a chunk of its own beside the
 * core's, and the official client it loads costs about ten times the core to load. Left out: a
 * worker process and the loader hooks. The command line's own lazy imports link the core the
 * same way (it is loaded by then anyway).
 */
const coreLinked = new Set(Object.keys(entries).filter((name) => !['index', 'meos-worker', 'cli-dev-hooks'].includes(name)))

/**
 * Two small modules every transport shares (the drain's refusals, the loader's mark), and the
 * stdio transport (shared by emcp/stdio, the client and the command line), linked with the core
 * so that they sit in its chunk: each was a file of its own, for the set of entries that reach
 * it, which Node's loader resolved, read and linked for a few kilobytes (the stdio chunk and
 * its entry: about 5M instructions of a stdio server's start). None of them imports a Node
 * module statically, so the core still needs none (Workers load it).
 */
const withTheCore = ['dist/src/transport/drain.js', 'dist/src/transport/loading.js', 'dist/src/transport/stdio.js']

/** The imports that link an entry with the core: the barrel and the modules above. */
const coreImports = [...withTheCore, entries.index].map((file) => `import ${JSON.stringify(`./${file}`)}\n`).join('')

/** Each core-linked entry as a module that imports the barrel, then re-exports the entry. */
const linkCore = {
  name: 'link-core',
  setup(b) {
    b.onResolve({ filter: /^emcp-entry:/ }, (args) => ({ path: args.path.slice('emcp-entry:'.length), namespace: 'emcp-entry' }))
    // the command line's lazy imports (proxy, openapi, client): the chunks they load also
    // reached parts of the core without the rest, which cut the core in four chunks again
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind !== 'dynamic-import' || !args.importer.includes('/dist/src/cli/')) return undefined
      return { path: relative(process.cwd(), resolve(args.resolveDir, args.path)), namespace: 'emcp-entry' }
    })
    b.onLoad({ filter: /.*/, namespace: 'emcp-entry' }, (args) => ({
      contents: `${coreImports}export * from ${JSON.stringify(`./${args.path}`)}\n`,
      resolveDir: process.cwd(),
      loader: 'js',
    }))
  },
}

rmSync('dist/bundle', { recursive: true, force: true })
const { metafile } = await build({
  entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, coreLinked.has(name) || name === 'index' ? `emcp-entry:${file}` : file])),
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only: every byte of a chunk on the startup path is read and
  // pre-parsed before the first answer, while identifiers stay as written so that stack
  // traces, class names and error messages read as the sources do; the maps point back.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  external: ['ajv', 'ajv-formats', 'ajv/*', '@cfworker/json-schema', 'pg', '@electric-sql/pglite', '@electric-sql/pglite/*', 'jose', '@opentelemetry/api', 'redis', '@modelcontextprotocol/client', '@modelcontextprotocol/client/*', 'yaml', 'esbuild', 'fflate', 'koffi', '@readme/openapi-parser'],
  plugins: [esModules, linkCore],
  metafile: true,
  logLevel: 'warning',
})

// The core chunk (the one the barrel imports) as a script Node compiles through a code cache,
// behind a shim of the same name: see core-shim.js.
const coreChunks = metafile.outputs['dist/bundle/index.js'].imports.filter((i) => i.kind === 'import-statement' && !i.external)
if (coreChunks.length !== 1) throw new Error(`bundle: the barrel imports ${coreChunks.length} chunks, expected the core alone`)
const corePath = coreChunks[0].path
coreAsScript('dist/bundle', corePath.slice('dist/bundle/'.length), metafile.outputs[corePath].imports.filter((i) => i.kind === 'dynamic-import').length)

// The playground page (playground/, browser code): one minified script and one stylesheet
// beside its index.html in dist/bundle/playground, which `serveHttp({ playground: true })`
// and `emcp dev` serve as they are; users need no build step.
await build({
  entryPoints: { playground: 'playground/app.ts' },
  outdir: 'dist/bundle/playground',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  logLevel: 'warning',
})
// the pattern tester runs as a classic Worker (patterns.ts): a script of its own, served beside the page's
await build({
  entryPoints: { 'pattern-worker': 'playground/pattern-worker.ts' },
  outdir: 'dist/bundle/playground',
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  logLevel: 'warning',
})
await build({ entryPoints: { playground: 'playground/playground.css' }, outdir: 'dist/bundle/playground', minify: true, logLevel: 'warning' })
copyFileSync('playground/index.html', 'dist/bundle/playground/index.html')
