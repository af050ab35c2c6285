import { Validator, type Schema, type SchemaDraft } from "@cfworker/json-schema";
import { McpvmError } from "../../util/errors.js";
import { guestNumberText } from "../../logging/redact.js";
import { declaredNames, describePath, describeProblem } from "./problem-wording.js";

export class McpInvalidArgumentsError extends McpvmError<"MCP_INVALID_ARGUMENTS"> {
  override readonly name = "McpInvalidArgumentsError";
}

export interface ArgumentProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * Validates a guest's arguments against a tool's inputSchema on the host, before any MCP request
 * is sent. Uses an interpreting validator (no code generation), because the schemas come from
 * servers we do not trust.
 */
export class ToolArgumentValidator {
  private readonly validator: Validator | undefined;
  /** Why the schema could not be used, if it could not (the call then only checks for an object). */
  readonly schemaProblem: string | undefined;
  /** Property names the schema declares: the only keys a problem may quote. */
  private readonly declared: ReadonlySet<string>;

  constructor(schema: unknown) {
    let validator: Validator | undefined;
    let problem: string | undefined;
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
      problem = "inputSchema is not an object";
    } else {
      try {
        validator = new Validator(schema as Schema, draftOf(schema as Schema), false);
      } catch (error) {
        problem = `inputSchema cannot be used: ${(error as Error).message}`;
      }
    }
    this.validator = validator;
    this.schemaProblem = problem;
    this.declared = declaredNames(schema);
  }

  check(args: unknown): readonly ArgumentProblem[] {
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      return [{ path: "(arguments)", message: `must be an object, got ${args === null ? "null" : Array.isArray(args) ? "an array" : typeof args}` }];
    }
    if (this.validator === undefined) return [];
    let result;
    try {
      result = this.validator.validate(args);
    } catch (error) {
      // The validator's own text may quote the arguments; the schema is what failed, so say only that.
      return [{ path: "(schema)", message: `the tool's inputSchema could not be evaluated (${(error as Error).name})` }];
    }
    if (result.valid) return [];
    // The validator reports the failing keyword at every enclosing level; the deepest ones say the most.
    // Paths and messages quote nothing the guest chose (problem-wording.ts: masking would make that an oracle).
    const problems = result.errors
      .filter((e) => e.keyword !== "properties" && e.keyword !== "allOf" && e.keyword !== "$ref")
      .map((e) => ({ path: describePath(e.instanceLocation, this.declared), message: describeProblem(e, this.declared) }));
    const unique = [...new Map(problems.map((p) => [`${p.path}\u0000${p.message}`, p])).values()];
    return unique.length > 0 ? unique : [{ path: "(arguments)", message: "do not match the tool's inputSchema" }];
  }

  /** Throws McpInvalidArgumentsError naming server, tool and the first few problems. */
  assertValid(server: string, tool: string, args: unknown): void {
    const problems = this.check(args);
    if (problems.length === 0) return;
    const shown = problems.slice(0, 5).map((p) => `${p.path}: ${p.message}`);
    if (problems.length > 5) shown.push(`… and ${guestNumberText(problems.length - 5)} more`);
    throw new McpInvalidArgumentsError("MCP_INVALID_ARGUMENTS", `invalid arguments for ${server}.${tool} (nothing was sent to the server): ${shown.join("; ")}`, {
      data: { server, tool, problems: problems.slice(0, 20) },
    });
  }
}

function draftOf(schema: Schema): SchemaDraft {
  const uri = typeof schema.$schema === "string" ? schema.$schema : "";
  if (uri.includes("draft-04")) return "4";
  if (uri.includes("draft-07") || uri.includes("draft-06")) return "7";
  if (uri.includes("2019-09")) return "2019-09";
  return "2020-12";
}

