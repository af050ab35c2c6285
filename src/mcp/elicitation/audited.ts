import type { ElicitResult } from "@modelcontextprotocol/client";
import type { AuditEvent } from "../../audit-log/index.js";
import type { ServerRequestHooks } from "../client-manager/index.js";

type Elicit = NonNullable<ServerRequestHooks["elicit"]>;

/**
 * An elicitation hook whose outcome goes to the audit log: which server asked, in which mode, how
 * many fields, and what the person did (accept, decline, cancel). Never the answers: they may be
 * anything the person typed.
 */
export function auditedElicit(elicit: Elicit, record: (event: AuditEvent) => Promise<void>): Elicit {
  return async (params, ctx) => {
    const result: ElicitResult = await elicit(params, ctx);
    const mode = params.mode === "url" ? "url" : "form";
    const properties = mode === "form" && "requestedSchema" in params ? Object.keys(params.requestedSchema?.properties ?? {}).length : undefined;
    await record({ event: "mcp.elicitation", subject: ctx.server, decision: result.action, details: { mode, ...(properties === undefined ? {} : { fields: properties }) } });
    return result;
  };
}
