import { auditServerText, type Finding } from "../audit/index.js";

/**
 * A config entry's `description` is text the model reads (the system message, manage_mcp list/info,
 * module summaries), and it often comes from a file someone else wrote (`mcpvm mcp import`). It is
 * screened like a tool description, and the findings are shown at approval.
 */
export interface DescriptionReview {
  /** Every finding, info included, located at `$.description`. */
  readonly findings: readonly Finding[];
  /** A block-level finding: the model never reads this description, approved or not. */
  readonly heldFromModel: boolean;
}

/**
 * Screened without other servers' tool names, so the verdict depends on the text alone: what the
 * person saw at approval is what decides later, whatever else is configured meanwhile.
 */
export function reviewDescription(description: string | undefined): DescriptionReview {
  const findings = auditServerText("description", description, { otherServers: [] });
  return { findings, heldFromModel: findings.some((f) => f.severity === "block") };
}

/**
 * The description the model may read: the configured text only once the person approved the
 * server with it (it is part of the approval hash), and never with block-level findings.
 */
export function descriptionForModel(description: string | undefined, approval: string): string | undefined {
  if (description === undefined || approval !== "approved") return undefined;
  return reviewDescription(description).heldFromModel ? undefined : description;
}
