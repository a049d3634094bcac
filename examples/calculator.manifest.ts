// The tool manifest, written by `emcp manifest --format ts`: regenerate it rather than edit it.
export default {
  "_meta": {
    "emcp/server": {
      "name": "calculator",
      "title": "Calculator",
      "version": "1.0.0"
    },
    "emcp/fingerprint": "sha256:dc40030973c678bd26348731d0b54377caa803b5d0a21db8b98066a018d8092b"
  },
  "tools": [
    {
      "name": "add",
      "title": "Add",
      "description": "Add two numbers and return their sum.",
      "inputSchema": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
          "a": {
            "type": "number",
            "description": "First addend"
          },
          "b": {
            "type": "number",
            "description": "Second addend"
          }
        },
        "required": [
          "a",
          "b"
        ],
        "additionalProperties": false
      },
      "outputSchema": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
          "sum": {
            "type": "number"
          }
        },
        "required": [
          "sum"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "idempotentHint": true,
        "openWorldHint": false,
        "readOnlyHint": true
      },
      "_meta": {
        "emcp/fingerprint": "sha256:c84b3a7dabc85a9a3f296158067864f00f7430eb9f2cafed37962be90676b7e0"
      }
    },
    {
      "name": "add_days",
      "description": "Add a number of days to an RFC 3339 date-time and tell the weekday of the result.",
      "inputSchema": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
          "date": {
            "type": "string",
            "format": "date-time"
          },
          "days": {
            "type": "integer"
          }
        },
        "required": [
          "date",
          "days"
        ]
      },
      "outputSchema": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
          "date": {
            "type": "string",
            "format": "date-time"
          },
          "weekday": {
            "type": "string",
            "enum": [
              "Sunday",
              "Monday",
              "Tuesday",
              "Wednesday",
              "Thursday",
              "Friday",
              "Saturday"
            ]
          }
        },
        "required": [
          "date",
          "weekday"
        ]
      },
      "annotations": {
        "idempotentHint": true,
        "readOnlyHint": true
      },
      "_meta": {
        "emcp/fingerprint": "sha256:7d9fdbaa5a701de6d9e5648c8b114acf24028ab4b8dd6d0850da99cab8a054db"
      }
    },
    {
      "name": "echo",
      "description": "Return the given text unchanged.",
      "inputSchema": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
          "text": {
            "type": "string",
            "description": "The text to echo"
          }
        },
        "required": [
          "text"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      },
      "_meta": {
        "emcp/fingerprint": "sha256:262517cec997aaa32c14efefab02458d28f66673eb27dbe8db81f5b2920ff3db"
      }
    }
  ]
} as const
