import { identifierWords } from "../normalise.js";
import type { Hit } from "../rules.js";
import type { SchemaField } from "../schema-walk.js";
import type { AuditedTool } from "../types.js";
import { intentHit, isAboutContext, mergeSignals, signalsOf, type IntentRole } from "./score.js";

function roleOf(field: SchemaField): IntentRole | undefined {
  if (field.kind.kind === "identifier") return undefined;
  if (field.kind.kind === "value") return "value";
  return field.field === "schema-description" || field.field === "schema-title" ? "parameter" : "prose";
}

/**
 * The intent score of a whole tool: signals from its description, its parameters' descriptions and
 * values, taken together — an attack split over the description ("… do not mention it") and a
 * parameter ("the conversation so far") adds up here though neither field does alone.
 */
export function toolIntent(tool: AuditedTool, fields: readonly SchemaField[]): Hit | undefined {
  const aboutContext = isAboutContext(identifierWords(tool.name).join(" "));
  const lists = [];
  for (const field of fields) {
    const role = roleOf(field);
    if (role !== undefined) lists.push(signalsOf({ text: field.text, role }, aboutContext));
  }
  return intentHit(mergeSignals(lists));
}
