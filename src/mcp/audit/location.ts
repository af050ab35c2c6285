import type { ScoredHit } from "./text-audit.js";
import { ruleById, type Hit } from "./rules.js";
import type { Finding, FindingLocation } from "./types.js";

export function toFinding(hit: ScoredHit | Hit, location: FindingLocation): Finding {
  const rule = ruleById(hit.rule);
  return { rule: rule.id, family: rule.family, severity: hit.severity ?? rule.severity, location, evidence: hit.evidence };
}
