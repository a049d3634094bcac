// The core chunk as a script that Node compiles through a code cache (see core-shim.js for why).
// Run by bundle.mjs after esbuild: the chunk `chunk-<hash>.js` becomes three files:
//   core-<hash>.js            the chunk as it was, an ES module (Deno, Bun, workerd, bundlers)
//   chunk-<hash>.script.js    the same code as one function expression, for node:vm
//   chunk-<hash>.js           the shim, in its place: every entry and chunk imports it as before
//   <entry>.js                an entry that only re-exported core names: a shim of its own
// The script keeps every line and column of the chunk but its first line, so the chunk's source
// map serves it shifted by one line; each rewrite below is of equal length for that reason.
//
//   import { coreAsScript } from './core-script.mjs'
//   coreAsScript('dist/bundle', 'chunk-I463ERYV.js', 2)
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Script } from 'node:vm'

/** What the script's function takes in place of `import.meta.url` and `import()`: names as long as what they replace. */
const metaUrl = '__emcp_meta_url'
const dynamicImport = '_emcpI'

/**
 * Rewrites `chunk` in `outdir` as described above; `dynamicImports` is how many `import()` the
 * bundler reported in it, so that a text `import(` inside a string could never be taken for one.
 */
export const coreAsScript = (outdir, chunk, dynamicImports) => {
  const hash = chunk.replace(/^chunk-|\.js$/g, '')
  const esModule = `core-${hash}.js`
  const script = chunk.replace(/\.js$/, '.script.js')
  const text = readFileSync(join(outdir, chunk), 'utf8')
  const fail = (why) => {
    throw new Error(`bundle: the core chunk ${chunk} cannot be made a script: ${why}`)
  }
  if (/[^\x00-\x7f]/.test(text)) fail('it holds a character beyond ASCII (the shim reads it as latin1)')
  for (const name of [metaUrl, dynamicImport]) if (text.includes(name)) fail(`it already uses the name ${name}`)
  // the core imports nothing statically (Workers load its ES module without nodejs_compat)
  if (/(^|[;}])\s*(import|export)\s*[{*\w"]/m.test(text.replace(/export\{[^}]*\};\s*(\/\/# sourceMappingURL=.*\s*)?$/, ''))) fail('it has a static import or export besides its closing export list')
  const tail = /export\{([^}]*)\};\s*\/\/# sourceMappingURL=\S+\s*$/.exec(text)
  if (tail === null) fail('it does not end with one export list and its source map comment')
  const exported = tail[1].split(',').map((entry) => {
    const [local, name = local] = entry.split(' as ').map((s) => s.trim())
    if (!/^[\w$]+$/.test(local) || !/^[\w$]+$/.test(name)) fail(`an export is not a plain name: ${entry}`)
    return { local, name }
  })
  let body = text.slice(0, tail.index)
  const imports = body.split(/\bimport\(/).length - 1
  if (imports !== dynamicImports) fail(`it has ${imports} "import(" in its text, the bundler reported ${dynamicImports} dynamic imports`)
  body = body.replaceAll('import.meta.url', metaUrl).replace(/\bimport\(/g, `${dynamicImport}(`)
  if (body.includes('import.meta')) fail('it uses import.meta beyond import.meta.url')
  const returned = exported.map(({ local, name }) => (local === name ? name : `${name}:${local}`)).join(',')
  const source = `(function(${metaUrl},${dynamicImport}){"use strict";\n${body}return{${returned}}})\n//# sourceMappingURL=${script}.map\n`
  new Script(source, { filename: script }) // a syntax error fails the build, not a user's start

  const map = JSON.parse(readFileSync(join(outdir, `${chunk}.map`), 'utf8'))
  writeFileSync(join(outdir, `${script}.map`), JSON.stringify({ ...map, file: script, mappings: `;${map.mappings}` }))
  writeFileSync(join(outdir, script), source)
  renameSync(join(outdir, chunk), join(outdir, esModule))
  const template = readFileSync(new URL('./core-shim.js', import.meta.url), 'utf8')
  /** The shim exporting `bindings` (`name` or `core:name`, as a destructuring pattern takes them). */
  const shimOf = (bindings) =>
    template
      .replaceAll('__SCRIPT__', () => `./${script}`)
      .replace('__MODULE__', () => `./${esModule}`)
      .replace('__EXPORTS__', () => bindings.join(', '))
  writeFileSync(join(outdir, chunk), shimOf(exported.map(({ name }) => name)))
  const entries = readdirSync(outdir).filter((file) => file.endsWith('.js') && !/^(chunk|core)-/.test(file))
  const shims = entries.filter((file) => {
    const bindings = reexports(readFileSync(join(outdir, file), 'utf8'), chunk)
    if (bindings !== undefined) writeFileSync(join(outdir, file), shimOf(bindings))
    return bindings !== undefined
  })
  return { script, esModule, exports: exported.map(({ name }) => name), shims }
}

/**
 * The bindings of an entry that only re-exports names of the core chunk (`import{a,b as c}from
 * "./chunk-X.js";export{a,c as d};`), as `a, b: d`; undefined for any other entry. Such an
 * entry becomes a shim itself, so that Node loads one file for it instead of two.
 */
const reexports = (text, chunk) => {
  const match = new RegExp(`^import\\{([^}]*)\\}from"\\./${chunk.replace(/[.]/g, '\\.')}";export\\{([^}]*)\\};\\n//# sourceMappingURL=\\S+\\n?$`).exec(text)
  if (match === null) return undefined
  const pairs = (list) => list.split(',').map((entry) => entry.split(' as ').map((t) => t.trim()))
  const local = new Map(pairs(match[1]).map(([name, alias = name]) => [alias, name]))
  return pairs(match[2]).map(([alias, name = alias]) => {
    const from = local.get(alias)
    if (from === undefined) throw new Error(`bundle: ${chunk}: an entry exports ${alias}, which it does not import`)
    return from === name ? name : `${from}: ${name}`
  })
}
