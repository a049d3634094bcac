/**
 * The shape a JSON Schema literal is checked against where a contract takes one: the keywords
 * of json-schema-to-ts's `JSONSchema`, typed so that the compiler keeps the literals the static
 * type is read from (`type`, `required`, `enum`, `const`, tuple `items` and their bounds) without a `const`
 * type parameter. Why: a `const` type parameter makes the compiler re-read the whole literal
 * as readonly, which costs about 35 instantiations per tool; a contextual type that holds a
 * literal type of each primitive kind (`''`, `0`, `true`) keeps every string, number and
 * boolean literal under it at no cost (`$ref` included: json-schema-to-ts follows only a
 * literal reference), and a tuple in the contextual type keeps array literals as tuples
 * where json-schema-to-ts reads them as such (`items`, `anyOf`, a `type` array: as a
 * mutable array, `type: ['string', 'null']` would type its property as `never`).
 *
 * Arrays come out mutable (`required: "a"[]`), which every reader here takes, since each reads
 * `[number]`. Types only.
 *
 * @example
 * import type { SchemaShape } from './schema-shape.js'
 * declare function typed<S extends SchemaShape>(s: S): S
 * const s = typed({ type: 'object', properties: { a: { enum: ['x', 'y'] } }, required: ['a'] })
 * // { type: "object"; properties: { a: { enum: ("x" | "y")[] } }; required: "a"[] }
 */

/** A string in a literal-keeping position: the `''` makes the compiler keep any string literal; `string & {}` accepts every string. */
type LiteralString = '' | (string & {})

/** A number in a literal-keeping position (json-schema-to-ts reads `minItems` and `maxItems` of tuples). */
type LiteralNumber = 0 | (number & {})

/** A JSON value whose primitives stay literal types (for `enum` and `const`). */
type LiteralJson = LiteralString | LiteralNumber | boolean | null | readonly LiteralJson[] | { readonly [key: string]: LiteralJson }

/** A list of subschemas kept in order, as a tuple. */
type Subschemas = readonly [] | readonly [Subschema, ...Subschema[]]

/** A subschema: a schema literal or a boolean schema. */
type Subschema = SchemaShape | boolean

/** Keyword -> subschema. */
type SchemaMap = { readonly [key: string]: Subschema }

/** The JSON Schema type names. */
type TypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null'

/** A JSON Schema literal, as a contract's input or output slot takes it (the keywords of json-schema-to-ts's `JSONSchema`, plus 2020-12's `prefixItems` and `$defs`). */
export interface SchemaShape {
  /**
   * Not a keyword: a value with `~standard` is a Standard Schema (zod, valibot, arktype), taken
   * as one; a literal that carries one without being one is refused by the keyword check
   * (`emcp`'s), which names it. Any type here, so that the check (not this shape) reports it.
   */
  readonly '~standard'?: unknown
  readonly $id?: string
  readonly $ref?: LiteralString
  readonly $schema?: string
  readonly $comment?: string
  readonly $anchor?: string
  readonly $defs?: SchemaMap
  readonly definitions?: SchemaMap
  readonly type?: TypeName | readonly TypeName[] | readonly [TypeName, ...TypeName[]]
  readonly const?: LiteralJson
  readonly enum?: readonly LiteralJson[]
  readonly multipleOf?: LiteralNumber
  readonly maximum?: LiteralNumber
  readonly exclusiveMaximum?: LiteralNumber
  readonly minimum?: LiteralNumber
  readonly exclusiveMinimum?: LiteralNumber
  readonly maxLength?: LiteralNumber
  readonly minLength?: LiteralNumber
  readonly pattern?: string
  readonly items?: Subschema | Subschemas
  readonly prefixItems?: Subschemas
  readonly additionalItems?: Subschema
  readonly contains?: Subschema
  readonly maxItems?: LiteralNumber
  readonly minItems?: LiteralNumber
  readonly uniqueItems?: boolean
  readonly maxProperties?: LiteralNumber
  readonly minProperties?: LiteralNumber
  readonly required?: readonly LiteralString[]
  readonly properties?: SchemaMap
  readonly patternProperties?: SchemaMap
  readonly additionalProperties?: Subschema
  readonly unevaluatedProperties?: Subschema
  readonly dependencies?: { readonly [key: string]: Subschema | readonly LiteralString[] }
  readonly dependentRequired?: { readonly [key: string]: readonly LiteralString[] }
  readonly dependentSchemas?: SchemaMap
  readonly propertyNames?: Subschema
  readonly if?: Subschema
  readonly then?: Subschema
  readonly else?: Subschema
  readonly allOf?: Subschemas
  readonly anyOf?: Subschemas
  readonly oneOf?: Subschemas
  readonly not?: Subschema
  readonly format?: string
  readonly contentMediaType?: string
  readonly contentEncoding?: string
  readonly title?: string
  readonly description?: string
  readonly default?: unknown
  readonly readOnly?: boolean
  readonly writeOnly?: boolean
  readonly examples?: readonly unknown[]
  readonly nullable?: boolean
}
