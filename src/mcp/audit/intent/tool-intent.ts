import { identifierWords } from "../normalise.js";
import { spokenValue } from "../text-audit.js";
import type { Hit } from "../rules.js";
import type { SchemaField } from "../schema-walk.js";
import type { AuditedTool } from "../types.js";
import { featuresOf, modelHit } from "./model.js";
import { proseSlot } from "./prose-slot.js";
import { intentHit, isAboutContext, maskOwnTools, mergeSignals, onlyWeak, paramNamesOf, signalsOf, type IntentRole, type ScreenedUnit } from "./score.js";

function roleOf(field: SchemaField): IntentRole | undefined {
  if (field.kind.kind === "identifier") return undefined;
  if (field.kind.kind === "value") return "value";
  // What a tool returns is read, not filled in: an outputSchema's descriptions are prose to the model.
  if (field.jsonPath.startsWith("$.outputSchema")) return "prose";
  return field.field === "schema-description" || field.field === "schema-title" ? "parameter" : "prose";
}

/**
 * The intent score of a whole tool: signals from its description, its parameters' descriptions and
 * values, taken together — an attack split over the description ("… do not mention it") and a
 * parameter ("the conversation so far") adds up here though neither field does alone.
 */
export function toolIntent(tool: AuditedTool, fields: readonly SchemaField[], ownTools?: ReadonlySet<string>): Hit | undefined {
  const aboutContext = isAboutContext(identifierWords(tool.name).join(" "));
  const slot = proseSlot(tool);
  const merged = mergeSignals([...toolUnits(fields, ownTools).map((unit) => signalsOf(unit, aboutContext)), slot === undefined ? [] : [slot]]);
  return onlyWeak(merged) ? undefined : intentHit(merged);
}

/** The strings of a tool the intent score reads, each with what it is to the model (anotherKept: see maskOwnTools). */
export function toolUnits(fields: readonly SchemaField[], ownTools?: ReadonlySet<string>, anotherKept = true): ScreenedUnit[] {
  const units: ScreenedUnit[] = [];
  const params = paramNamesOf(fields.map((f) => f.jsonPath));
  for (const field of fields) {
    const role = roleOf(field);
    if (role !== undefined) units.push({ text: maskOwnTools(role === "value" ? spokenValue(field.text) : field.text, ownTools, params, anotherKept), role });
  }
  return units;
}

/** The fitted model's view of the whole tool (model.ts). */
export function toolModelHit(tool: AuditedTool, fields: readonly SchemaField[], ownTools?: ReadonlySet<string>): Hit | undefined {
  return modelHit(featuresOf(toolUnits(fields, ownTools), isAboutContext(identifierWords(tool.name).join(" "))));
}
