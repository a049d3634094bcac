/**
 * The Standard Schema v1 and Standard JSON Schema v1 interfaces (standardschema.dev), written
 * out here as plain types so that no schema library, nor the spec's own package, is needed to
 * build or use emcp. zod 4, valibot 1, arktype 2 and effect's Schema implement them. Types only.
 *
 * @example
 * import type { StandardSchemaV1, InferOutput } from './spec.js'
 * declare const s: StandardSchemaV1<{ a: string }, { a: number }>
 * type Out = InferOutput<typeof s> // { a: number }
 */

/** What every Standard value carries under `~standard`: version, vendor and its static types. */
export interface StandardTypedProps<Input = unknown, Output = Input> {
  /** The version of the standard (1). */
  readonly version: 1
  /** The library's name (`zod`, `valibot`, `arktype`, `effect`). */
  readonly vendor: string
  /** The schema's input and output types (phantom: libraries leave it undefined at run time). */
  readonly types?: StandardTypes<Input, Output> | undefined
}

/** The input and output types of a schema (after transforms and defaults: the output). */
export interface StandardTypes<Input = unknown, Output = Input> {
  readonly input: Input
  readonly output: Output
}

/** A value that carries Standard types. */
export interface StandardTypedV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardTypedProps<Input, Output>
}

/** One problem a Standard Schema found: a message and where. */
export interface StandardIssue {
  readonly message: string
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined
}

/** What `~standard.validate` gives: the output value, or issues. */
export type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> }

/** The Standard Schema v1 properties: a validator that may answer now or later. */
export interface StandardSchemaProps<Input = unknown, Output = Input> extends StandardTypedProps<Input, Output> {
  /** Validates an unknown value (and applies the schema's transforms and defaults). */
  readonly validate: (value: unknown, options?: { readonly libraryOptions?: Record<string, unknown> | undefined } | undefined) => StandardResult<Output> | Promise<StandardResult<Output>>
}

/** A Standard Schema v1: a value with `~standard.validate`. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output>
}

/** The options of a Standard JSON Schema converter (`target: 'draft-2020-12'` here). */
export interface StandardJsonOptions {
  readonly target: 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | (string & {})
  readonly libraryOptions?: Record<string, unknown> | undefined
}

/** The Standard JSON Schema v1 converter: a JSON Schema of the input or of the output type. */
export interface StandardJsonConverter {
  readonly input: (options: StandardJsonOptions) => Record<string, unknown>
  readonly output: (options: StandardJsonOptions) => Record<string, unknown>
}

/** The static input type of a Standard value (what callers send). */
export type InferInput<S extends StandardTypedV1> = NonNullable<S['~standard']['types']>['input']

/** The static output type of a Standard value (what a validation gives). */
export type InferOutput<S extends StandardTypedV1> = NonNullable<S['~standard']['types']>['output']
