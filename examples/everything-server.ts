/**
 * The conformance server's tools, resources and prompts: every tool that the official MCP
 * conformance suite (`@modelcontextprotocol/conformance`, server scenarios) calls, written
 * with emcp and importing nothing but `emcp`, so that the same server runs under Node
 * (examples/everything.ts serves it over HTTP or stdio) and, through `emcp/fetch`, on Deno,
 * Bun and Cloudflare Workers (examples/runtimes/). docs/conformance.md lists the scenarios.
 *
 * @example
 * import { everythingServer } from './everything-server.js'
 * const server = everythingServer({ requestStateKeys: ['a key of sixteen bytes or more'] })
 */
import { emcp, mcpServer, prompt, prompts, resource, resources, resourceTemplate, tasks, type ContentBlock, type SharedStore } from 'emcp'

// ---------------------------------------------------------------------------------------
// test data

/** A 1x1 red PNG, base64. */
export const testImageBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

/** A minimal WAV file (one silent 16-bit sample at 8 kHz), base64. */
export const testAudioBase64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA='

/** The input of the tools that take no arguments. */
const noArguments = { type: 'object', properties: {}, additionalProperties: false } as const

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Sleeps, or stops early (rejecting) when the call is cancelled. */
const sleepUnless = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('cancelled'))
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('cancelled'))), { once: true })
  })

// ---------------------------------------------------------------------------------------
// content tools

export const simpleText = emcp({
  name: 'test_simple_text',
  description: 'Return one text block (conformance: tools-call-simple-text).',
  input: noArguments,
  annotations: { readOnlyHint: true },
})

export const imageContent = emcp({
  name: 'test_image_content',
  description: 'Return one image block, a 1x1 red PNG (conformance: tools-call-image).',
  input: noArguments,
  annotations: { readOnlyHint: true },
})

export const audioContent = emcp({
  name: 'test_audio_content',
  description: 'Return one audio block, a minimal WAV file (conformance: tools-call-audio).',
  input: noArguments,
  annotations: { readOnlyHint: true },
})

export const embeddedResource = emcp({
  name: 'test_embedded_resource',
  description: 'Return one embedded text resource (conformance: tools-call-embedded-resource).',
  input: noArguments,
  annotations: { readOnlyHint: true },
})

export const multipleContentTypes = emcp({
  name: 'test_multiple_content_types',
  description: 'Return a text, an image and an embedded resource block together (conformance: tools-call-mixed-content).',
  input: noArguments,
  annotations: { readOnlyHint: true },
})

export const resourceLink = emcp({
  name: 'test_resource_link',
  description: 'Return a link to the resource test://static-text (not called by the suite; shows the resource_link block).',
  input: noArguments,
  annotations: { readOnlyHint: true },
})

export const errorHandling = emcp({
  name: 'test_error_handling',
  description: 'Always fail: the result has isError true and says why (conformance: tools-call-error).',
  input: noArguments,
})

// ---------------------------------------------------------------------------------------
// tools that talk to the client while they run

export const toolWithLogging = emcp({
  name: 'test_tool_with_logging',
  description: 'Send three info log messages 50 ms apart while running (conformance: tools-call-with-logging).',
  input: noArguments,
  annotations: { readOnlyHint: true },
})

export const toolWithProgress = emcp({
  name: 'test_tool_with_progress',
  description: 'Report progress 0, 50 and 100 of 100, 50 ms apart, when the call carries a progress token (conformance: tools-call-with-progress).',
  input: noArguments,
  annotations: { readOnlyHint: true },
})

export const sampling = emcp({
  name: 'test_sampling',
  description: "Ask the client's model to answer a prompt (sampling/createMessage) and return its answer (conformance: tools-call-sampling).",
  input: {
    type: 'object',
    properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
    required: ['prompt'],
    additionalProperties: false,
  },
  annotations: { openWorldHint: true },
})

export const elicitation = emcp({
  name: 'test_elicitation',
  description: 'Ask the user for a username and an email address (elicitation/create) and return the answer (conformance: tools-call-elicitation).',
  input: {
    type: 'object',
    properties: { message: { type: 'string', description: 'The message to show the user' } },
    required: ['message'],
    additionalProperties: false,
  },
})

export const elicitationDefaults = emcp({
  name: 'test_elicitation_sep1034_defaults',
  description: 'Ask the user to fill a form whose fields all have defaults: string, integer, number, enum, boolean (conformance: elicitation-sep1034-defaults).',
  input: noArguments,
})

export const elicitationEnums = emcp({
  name: 'test_elicitation_sep1330_enums',
  description: 'Ask the user to fill a form with the SEP-1330 enum variants (conformance: elicitation-sep1330-enums).',
  input: noArguments,
})

export const reconnection = emcp({
  name: 'test_reconnection',
  description: 'Answer after a short pause; the suite uses it to watch how the HTTP transport streams the answer (conformance: server-sse-polling).',
  input: noArguments,
  annotations: { readOnlyHint: true },
})

// ---------------------------------------------------------------------------------------
// schema tools

export const jsonSchema202012 = emcp({
  name: 'json_schema_2020_12_tool',
  description:
    'Tool with JSON Schema 2020-12 features: $schema, $defs with $anchor and a $ref, allOf/anyOf, if/then/else, additionalProperties (conformance: json-schema-2020-12).',
  input: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: {
      address: {
        $anchor: 'addressDef',
        type: 'object',
        properties: { street: { type: 'string' }, city: { type: 'string' } },
      },
    },
    properties: {
      name: { type: 'string' },
      address: { $ref: '#/$defs/address' },
      contactMethod: { type: 'string', enum: ['phone', 'email'] },
      phone: { type: 'string' },
      email: { type: 'string' },
    },
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
})

// ---------------------------------------------------------------------------------------
// 2026-07-28: questions answered by a retry (conformance: input-required-result-*), and
// the diagnostic tools of server-stateless and http-custom-header-server-validation

export const irElicitation = emcp({
  name: 'test_input_required_result_elicitation',
  description: "Ask the user's name (key user_name), then greet them (conformance: input-required-result-basic-elicitation and others).",
  input: noArguments,
})

export const irSampling = emcp({
  name: 'test_input_required_result_sampling',
  description: "Ask the client's model for the capital of France, then report its answer (conformance: input-required-result-basic-sampling).",
  input: noArguments,
})

export const irListRoots = emcp({
  name: 'test_input_required_result_list_roots',
  description: "Ask for the client's roots, then list them (conformance: input-required-result-basic-list-roots).",
  input: noArguments,
})

export const irRequestState = emcp({
  name: 'test_input_required_result_request_state',
  description: 'Ask for a confirmation; the retry must echo the signed requestState (conformance: input-required-result-request-state).',
  input: noArguments,
})

export const irMultipleInputs = emcp({
  name: 'test_input_required_result_multiple_inputs',
  description: 'Ask a name, a greeting from the model and the roots at once (conformance: input-required-result-multiple-input-requests).',
  input: noArguments,
})

export const irMultiRound = emcp({
  name: 'test_input_required_result_multi_round',
  description: 'Ask a name, then a favourite colour, one round each (conformance: input-required-result-multi-round).',
  input: noArguments,
})

export const irTamperedState = emcp({
  name: 'test_input_required_result_tampered_state',
  description: 'Ask for a confirmation; a retry with a changed requestState is refused (conformance: input-required-result-tampered-state).',
  input: noArguments,
})

export const irCapabilities = emcp({
  name: 'test_input_required_result_capabilities',
  description: 'Ask the model, and the user only if the client can elicit (conformance: input-required-result-capability-check).',
  input: noArguments,
})

export const missingCapability = emcp({
  name: 'test_missing_capability',
  description: "Ask the client's model; a client that did not declare sampling gets -32021 (conformance: server-stateless).",
  input: noArguments,
})

export const streamingElicitation = emcp({
  name: 'test_streaming_elicitation',
  description: 'Report progress, then ask the user a question: the answer is input_required, never a request on the stream (conformance: server-stateless).',
  input: noArguments,
})

export const loggingTool = emcp({
  name: 'test_logging_tool',
  description: 'Log at every level; a 2026-07-28 request without a log level gets none of it (conformance: server-stateless).',
  input: noArguments,
})

export const triggerToolChange = emcp({
  name: 'test_trigger_tool_change',
  description: 'Add or remove the tool test_dynamic_tool, changing the tool list (conformance: server-stateless).',
  input: noArguments,
})

export const triggerPromptChange = emcp({
  name: 'test_trigger_prompt_change',
  description: 'Add or remove the prompt test_dynamic_prompt, changing the prompt list (conformance: server-stateless).',
  input: noArguments,
})

export const headerParam = emcp({
  name: 'test_header_param',
  description: 'Echo a region that HTTP clients mirror into the Mcp-Param-Region header (conformance: http-custom-header-server-validation).',
  input: {
    type: 'object',
    properties: { region: { type: 'string', description: 'The region', 'x-mcp-header': 'Region' } },
    required: ['region'],
  },
  annotations: { readOnlyHint: true },
})

/** The tool test_trigger_tool_change adds and removes. */
const dynamicTool = emcp({ name: 'test_dynamic_tool', description: 'Here for a moment (added by test_trigger_tool_change).', input: noArguments })

/** The prompt test_trigger_prompt_change adds and removes. */
const dynamicPrompt = prompt({ name: 'test_dynamic_prompt', description: 'Here for a moment (added by test_trigger_prompt_change).', get: () => 'dynamic' })

/** The name form the input-required tools ask for. */
const nameForm = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const

// ---------------------------------------------------------------------------------------
// long-running tools (conformance: tasks-*, the io.modelcontextprotocol/tasks extension). The
// handlers are plain handlers: a call from a client that declared the extension becomes a
// task when the handler waits on anything (a timer here), and ctx.elicit then asks through
// the task (tasks/get shows the question, tasks/update brings the answer).

export const greet = emcp({
  name: 'greet',
  description: 'Greet someone by name; always answered inline (conformance: tasks-*).',
  input: { type: 'object', properties: { name: { type: 'string', description: 'Who to greet' } }, required: ['name'] },
  annotations: { readOnlyHint: true },
})

export const slowCompute = emcp({
  name: 'slow_compute',
  description: 'Work for the given number of seconds, then report; may run as a task (conformance: tasks-*).',
  input: {
    type: 'object',
    properties: {
      seconds: { type: 'number', minimum: 0, description: 'How long to work' },
      label: { type: 'string', description: 'A label echoed in the result' },
    },
    required: ['seconds'],
  },
  annotations: { readOnlyHint: true },
  taskSupport: 'optional',
})

export const failingJob = emcp({
  name: 'failing_job',
  description: 'Work for a second, then fail with a tool error; runs only as a task (conformance: tasks-lifecycle, tasks-required-task-error).',
  input: { type: 'object', properties: {} },
  taskSupport: 'required',
})

export const protocolErrorJob = emcp({
  name: 'protocol_error_job',
  description: 'Work briefly, then produce a result JSON cannot carry: a protocol-level failure (conformance: tasks-lifecycle).',
  input: { type: 'object', properties: {} },
  taskSupport: 'optional',
})

export const confirmDelete = emcp({
  name: 'confirm_delete',
  description: 'Look the file up, ask the user to confirm its deletion, then report (conformance: tasks-mrtr-input, tasks-dispatch-and-envelope).',
  input: { type: 'object', properties: { filename: { type: 'string', description: 'The file to delete' } }, required: ['filename'] },
  annotations: { destructiveHint: true },
  taskSupport: 'optional',
})

export const multiInput = emcp({
  name: 'multi_input',
  description: 'Ask two questions at once (a name and a confirmation), then report both answers (conformance: tasks-mrtr-input).',
  input: { type: 'object', properties: {} },
  taskSupport: 'optional',
})

export const toolWithTask = emcp({
  name: 'test_tool_with_task',
  description: "Ask for the user's name, then greet them after some work; runs only as a task (conformance: tasks-mrtr-composition).",
  input: { type: 'object', properties: {} },
  taskSupport: 'required',
})

/** The confirmation confirm_delete asks for. */
const confirmForm = {
  type: 'object',
  properties: { confirm: { type: 'boolean', description: 'Delete the file?' } },
  required: ['confirm'],
} as const

/** The two questions multi_input asks at once. */
const yourNameForm = { type: 'object', properties: { name: { type: 'string', description: 'Your name' } } } as const
const proceedForm = { type: 'object', properties: { confirm: { type: 'boolean', description: 'Proceed?' } } } as const

/** The question test_tool_with_task asks first. */
const userNameForm = {
  type: 'object',
  properties: { name: { type: 'string', description: 'Your name' } },
  required: ['name'],
} as const

// ---------------------------------------------------------------------------------------
// the forms the elicitation tools show

/** `test_elicitation`: the answer is typed `{ username: string; email: string }`. */
const userForm = {
  type: 'object',
  properties: {
    username: { type: 'string', description: "User's response" },
    email: { type: 'string', description: "User's email address" },
  },
  required: ['username', 'email'],
} as const

/** SEP-1034: a default for every primitive type. */
const defaultsForm = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
  required: [],
} as const

/** SEP-1330: every enum variant of 2025-11-25, single-select and multi-select, titled or not. */
const enumsForm = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Select one option with titles',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Select one option (legacy)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Select multiple options',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Select multiple options with titles',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
  required: [],
} as const

/** The text of a sampling answer (one block or several). */
const textOf = (content: ContentBlock | ReadonlyArray<ContentBlock>): string =>
  (Array.isArray(content) ? content : [content])
    .map((b: ContentBlock) => (b.type === 'text' ? b.text : `[${b.type}]`))
    .join('\n')

// ---------------------------------------------------------------------------------------
// the server

// ---------------------------------------------------------------------------------------
// resources and prompts (conformance: resources-*, prompts-*, completion-complete)

/** The resources the suite reads and watches; `conformanceResources.updated(uri)` notifies subscribers. */
export const conformanceResources = resources(
  [
    resource({
      uri: 'test://static-text',
      name: 'static-text',
      description: 'A static text resource for testing.',
      mimeType: 'text/plain',
      read: () => 'This is the content of the static text resource.',
    }),
    resource({
      uri: 'test://static-binary',
      name: 'static-binary',
      description: 'A static binary resource (a 1x1 PNG) for testing.',
      mimeType: 'image/png',
      read: () => Buffer.from(testImageBase64, 'base64'),
    }),
    resource({
      uri: 'test://watched-resource',
      name: 'watched-resource',
      description: 'A resource clients may subscribe to.',
      mimeType: 'text/plain',
      read: () => 'Watched resource content.',
    }),
    resourceTemplate({
      uriTemplate: 'test://template/{id}/data',
      name: 'template-data',
      description: 'Data for an id, from a URI template.',
      mimeType: 'application/json',
      read: ({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      complete: { id: (value) => ['123', '456', '789'].filter((v) => v.startsWith(value)) },
    }),
  ],
  { subscribe: true },
)

/** The prompts the suite gets, one per content kind it checks. */
export const conformancePrompts = prompts([
  prompt({
    name: 'test_simple_prompt',
    description: 'A simple prompt without arguments.',
    get: () => 'This is a simple prompt for testing.',
  }),
  prompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments.',
    arguments: {
      arg1: { description: 'First test argument', required: true },
      arg2: { description: 'Second test argument', required: true },
    },
    get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
    complete: { arg1: (value) => ['testValue1', 'testValue2'].filter((v) => v.startsWith(value)) },
  }),
  prompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource.',
    arguments: { resourceUri: { description: 'The URI of the resource to embed', required: true } },
    get: ({ resourceUri }) => [
      { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  }),
  prompt({
    name: 'test_input_required_result_prompt',
    description: 'A prompt that asks the user for its context first (conformance: input-required-result-non-tool-request).',
    get: async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'What context should the prompt use?',
          requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
        },
        { key: 'user_context' },
      )
      return `Use this context: ${answer.action === 'accept' ? answer.content.context : 'none'}`
    },
  }),
  prompt({
    name: 'test_prompt_with_image',
    description: 'A prompt with an image.',
    get: () => [
      { role: 'user', content: { type: 'image', data: testImageBase64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }),
])

/** What a deployment decides: the requestState keys (rotating: the first signs) and a store shared by replicas. */
export interface EverythingOptions {
  readonly requestStateKeys?: ReadonlyArray<string> | undefined
  readonly store?: SharedStore | undefined
}

/** The conformance server, ready for any transport (one per process: the dynamic prompt and resources are the module's). */
export const everythingServer = ({ requestStateKeys, store }: EverythingOptions = {}) => {
  const everything = mcpServer(
  [
    simpleText,
    imageContent,
    audioContent,
    embeddedResource,
    multipleContentTypes,
    resourceLink,
    errorHandling,
    toolWithLogging,
    toolWithProgress,
    sampling,
    elicitation,
    elicitationDefaults,
    elicitationEnums,
    reconnection,
    jsonSchema202012,
    greet,
    slowCompute,
    failingJob,
    protocolErrorJob,
    confirmDelete,
    multiInput,
    toolWithTask,
    irElicitation,
    irSampling,
    irListRoots,
    irRequestState,
    irMultipleInputs,
    irMultiRound,
    irTamperedState,
    irCapabilities,
    missingCapability,
    streamingElicitation,
    loggingTool,
    triggerToolChange,
    triggerPromptChange,
    headerParam,
  ],
  { name: 'emcp-everything', version: '1.0.0', title: 'emcp conformance server' },
  {
    instructions: 'The server the MCP conformance suite runs against: one test_* tool per scenario.',
    requestState: { keys: requestStateKeys },
    ...(store === undefined ? {} : { store }),
    features: [conformanceResources, conformancePrompts, tasks({ ttlMs: 600_000, maxTasks: 200, pollIntervalMs: 200 })],
  },
).implement({
  test_simple_text: () => 'This is a simple text response for testing.',

  test_image_content: () => [{ type: 'image', data: testImageBase64, mimeType: 'image/png' }],

  test_audio_content: () => [{ type: 'audio', data: testAudioBase64, mimeType: 'audio/wav' }],

  test_embedded_resource: () => [
    {
      type: 'resource',
      resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
    },
  ],

  test_multiple_content_types: () => [
    { type: 'text', text: 'Multiple content types test:' },
    { type: 'image', data: testImageBase64, mimeType: 'image/png' },
    {
      type: 'resource',
      resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) },
    },
  ],

  test_resource_link: () => [
    { type: 'resource_link', uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain', description: 'A static text resource' },
  ],

  test_error_handling: () => {
    throw new Error('This tool intentionally returns an error for testing')
  },

  test_tool_with_logging: async (_args, ctx) => {
    ctx.log('info', 'Tool execution started')
    await sleep(50)
    ctx.log('info', 'Tool processing data')
    await sleep(50)
    ctx.log('info', 'Tool execution completed')
    return 'Tool with logging executed successfully'
  },

  test_tool_with_progress: async (_args, ctx) => {
    ctx.progress(0, 100, 'Completed step 0 of 100')
    await sleep(50)
    ctx.progress(50, 100, 'Completed step 50 of 100')
    await sleep(50)
    ctx.progress(100, 100, 'Completed step 100 of 100')
    return `progress token: ${String(ctx.meta?.progressToken ?? 'none')}`
  },

  test_sampling: async ({ prompt }, ctx) => {
    const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 })
    return `LLM response: ${textOf(answer.content)}`
  },

  test_elicitation: async ({ message }, ctx) => {
    const answer = await ctx.elicit({ message, requestedSchema: userForm })
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`
  },

  test_elicitation_sep1034_defaults: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Please review and update the form fields with defaults', requestedSchema: defaultsForm })
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`
  },

  test_elicitation_sep1330_enums: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Please select options from the enum fields', requestedSchema: enumsForm })
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`
  },

  test_reconnection: async () => {
    await sleep(100)
    return 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.'
  },

  json_schema_2020_12_tool: (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,

  greet: ({ name }) => `Hello, ${name}!`,

  slow_compute: async ({ seconds, label }, ctx) => {
    ctx.progress(0, seconds, 'working')
    await sleepUnless(seconds * 1000, ctx.signal)
    return `Computed for ${seconds} s${label === undefined ? '' : ` (${label})`}`
  },

  failing_job: async () => {
    await sleep(1000)
    throw new Error('failing_job failed, as it always does')
  },

  protocol_error_job: async () => {
    await sleep(100)
    // a BigInt cannot be serialised: the call fails at the protocol level (-32603), not as a tool error
    return { content: [{ type: 'text', text: 'never sent' }], _meta: { size: 1n } }
  },

  confirm_delete: async ({ filename }, ctx) => {
    await sleep(10) // the lookup
    const answer = await ctx.elicit({ message: `Delete ${filename}?`, requestedSchema: confirmForm })
    return answer.action === 'accept' && answer.content.confirm ? `Deleted ${filename}` : `Kept ${filename}`
  },

  multi_input: async (_args, ctx) => {
    await sleep(10)
    const [who, proceed] = await Promise.all([
      ctx.elicit({ message: 'Your name?', requestedSchema: yourNameForm }),
      ctx.elicit({ message: 'Proceed?', requestedSchema: proceedForm }),
    ])
    return `name=${JSON.stringify(who.content?.name ?? null)}, proceed=${JSON.stringify(proceed.content?.confirm ?? null)}`
  },

  test_input_required_result_elicitation: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'What is your name?', requestedSchema: nameForm }, { key: 'user_name' })
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : 'Hello, stranger!'
  },

  test_input_required_result_sampling: async (_args, ctx) => {
    const answer = await ctx.sample(
      { messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 },
      { key: 'capital_question' },
    )
    return `The model says: ${textOf(answer.content)}`
  },

  test_input_required_result_list_roots: async (_args, ctx) => {
    const roots = await ctx.roots({ key: 'client_roots' })
    return `Roots: ${roots.map((r) => r.uri).join(', ') || 'none'}`
  },

  test_input_required_result_request_state: async (_args, ctx) => {
    const answer = await ctx.elicit(
      { message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
      { key: 'confirm' },
    )
    // the answer came back through a requestState this server signed and verified
    return `state-ok: confirmed=${answer.action === 'accept' && answer.content.ok}`
  },

  test_input_required_result_multiple_inputs: async (_args, ctx) => {
    const [who, greeting, roots] = await Promise.all([
      ctx.elicit({ message: 'What is your name?', requestedSchema: nameForm }, { key: 'user_name' }),
      ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 }, { key: 'greeting' }),
      ctx.roots({ key: 'client_roots' }),
    ])
    return `${textOf(greeting.content)} ${who.content?.name ?? 'stranger'} (${roots.length} roots)`
  },

  test_input_required_result_multi_round: async (_args, ctx) => {
    const who = await ctx.elicit({ message: 'Step 1: What is your name?', requestedSchema: nameForm }, { key: 'step1' })
    const color = await ctx.elicit(
      { message: 'Step 2: What is your favorite color?', requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] } },
      { key: 'step2' },
    )
    return `${who.content?.name ?? '?'} likes ${color.content?.color ?? '?'}`
  },

  test_input_required_result_tampered_state: async (_args, ctx) => {
    const answer = await ctx.elicit(
      { message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
      { key: 'confirm' },
    )
    return `confirmed=${answer.action === 'accept' && answer.content.ok}`
  },

  test_input_required_result_capabilities: async (_args, ctx) => {
    // ask only what this request's client can answer
    const canElicit = ctx.session.clientCapabilities?.elicitation !== undefined
    const [model, user] = await Promise.all([
      ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say something' } }], maxTokens: 20 }, { key: 'model_input' }),
      canElicit ? ctx.elicit({ message: 'Your name?', requestedSchema: nameForm }, { key: 'user_input' }) : Promise.resolve(undefined),
    ])
    return `model: ${textOf(model.content)}; user: ${user?.content?.name ?? 'not asked'}`
  },

  test_missing_capability: async (_args, ctx) => {
    const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Hello?' } }], maxTokens: 10 })
    return textOf(answer.content)
  },

  test_streaming_elicitation: async (_args, ctx) => {
    ctx.progress(1, 2, 'about to ask')
    const answer = await ctx.elicit({ message: 'Continue?', requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } } } })
    return `answered: ${answer.action}`
  },

  test_logging_tool: async (_args, ctx) => {
    for (const level of ['debug', 'info', 'warning', 'error'] as const) ctx.log(level, `a ${level} message`)
    await sleep(20)
    return 'logged (where the request asked for logs)'
  },

  test_trigger_tool_change: () => {
    if (everything.removeTool(dynamicTool.name)) return 'removed test_dynamic_tool'
    everything.addTool(dynamicTool, () => 'here')
    return 'added test_dynamic_tool'
  },

  test_trigger_prompt_change: () => {
    if (conformancePrompts.remove(dynamicPrompt.name)) return 'removed test_dynamic_prompt'
    conformancePrompts.add(dynamicPrompt)
    return 'added test_dynamic_prompt'
  },

  test_header_param: ({ region }) => `region: ${region}`,

  test_tool_with_task: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'What is your name?', requestedSchema: userNameForm }, { key: 'user_name' })
    await sleep(200) // the work that makes it a task
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : 'Hello, stranger!'
  },
})
  return everything
}
