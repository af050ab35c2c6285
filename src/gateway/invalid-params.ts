import { ProtocolError, ProtocolErrorCode, Server, type JSONRPCRequest, type Result, type ServerContext } from "@modelcontextprotocol/server";

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The gateway's SDK server. The SDK checks every request's params against the spec's schema before
 * the handler runs, but for every method but tools/call a failed check is thrown as a plain Error
 * whose message is the validator's issue list as JSON, and the client gets -32603 "Internal error"
 * with that dump: a malformed request reads as the gateway's fault. Here it becomes -32602 Invalid
 * params naming each field, as tools/call's check answers.
 */
export class GatewayServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const inner = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await inner(request, ctx);
      } catch (error) {
        throw schemaRefusal(method, error) ?? error;
      }
    };
  }
}

interface Issue {
  readonly path: ReadonlyArray<string | number>;
  readonly message: string;
}

/** The SDK's schema refusal (a plain Error carrying a JSON issue list) as -32602; anything else: undefined. */
export function schemaRefusal(method: string, error: unknown): ProtocolError | undefined {
  // Only a plain Error: ProtocolErrors and the gateway's own errors already carry their code.
  if (!(error instanceof Error) || Object.getPrototypeOf(error) !== Error.prototype || !error.message.startsWith("[")) return undefined;
  let issues: unknown;
  try {
    issues = JSON.parse(error.message);
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues) || issues.length === 0 || !issues.every(isIssue)) return undefined;
  const described = issues.map((issue) => `${issue.path.length === 0 ? "params" : issue.path.join(".")}: ${issue.message}`);
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${described.join("; ")}`);
}

function isIssue(value: unknown): value is Issue {
  const issue = value as Partial<Issue> | null;
  return typeof issue === "object" && issue !== null && Array.isArray(issue.path) && typeof issue.message === "string";
}
