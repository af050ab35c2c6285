import { guestNumberText } from "../../logging/redact.js";

/**
 * How an argument problem is worded for the guest without quoting the guest. Host error text
 * passes the secret redactor on its way back, so a property name, a number or a long index the
 * guest chose would come back masked exactly when it equals a configured secret: guest code could
 * try candidates and watch for "****" (an oracle). So the wording holds only the schema's own
 * text (property names it declares, its limits), fixed words, and guest numbers below 1000 (at
 * most 3 characters, shorter than any masked value).
 */


/** Property names the schema itself declares (server text, already masked): these may be quoted. */
export function declaredNames(schema: unknown): ReadonlySet<string> {
  const names = new Set<string>();
  const pending: unknown[] = [schema];
  let visited = 0;
  // Listing caps bound a schema's size; the count bound keeps this linear even so.
  while (pending.length > 0 && visited < 100_000) {
    const node = pending.pop();
    visited += 1;
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    for (const [key, value] of Object.entries(node)) {
      if ((key === "properties" || key === "dependentRequired" || key === "dependentSchemas" || key === "dependencies") && value !== null && typeof value === "object" && !Array.isArray(value)) {
        for (const name of Object.keys(value)) names.add(name);
      }
      if (key === "required" && Array.isArray(value)) for (const name of value) if (typeof name === "string") names.add(name);
      pending.push(value);
    }
  }
  return names;
}

/** A key the guest made up, named by its length only. */
function guestKey(key: string): string {
  return `‹a key of ${guestNumberText(key.length)} characters›`;
}

/** "#/items/0/name" -> "items[0].name"; keys the schema does not declare are not quoted. */
export function describePath(pointer: string, declared: ReadonlySet<string>): string {
  const parts = pointer
    .replace(/^#\/?/, "")
    .split("/")
    .filter((p) => p.length > 0)
    .map((p) => decodeURIComponentSafe(p).replace(/~1/g, "/").replace(/~0/g, "~"));
  if (parts.length === 0) return "(arguments)";
  return parts
    .map((p, i) => {
      if (/^\d+$/.test(p)) return `[${guestNumberText(p)}]`;
      const shown = declared.has(p) ? p : guestKey(p);
      return i === 0 ? shown : `.${shown}`;
    })
    .join("");
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

type Rule = readonly [RegExp, (match: RegExpExecArray, declared: ReadonlySet<string>) => string];

const key = (name: string | undefined, declared: ReadonlySet<string>) => (name !== undefined && declared.has(name) ? `"${name}"` : guestKey(name ?? ""));
const count = (text: string | undefined) => guestNumberText(text ?? "");

/**
 * Every `@cfworker/json-schema` message, anchored from start to end so no guest text can ride
 * along unseen, reworded without the guest's data: property names it did not get from the schema,
 * the value itself in range errors, its lengths, counts and indexes above 999. Any other message
 * becomes a generic one naming the schema keyword.
 */
const RULES: readonly Rule[] = [
  [/^\S+ is (greater than|less than|not a multiple of)( or equal to)? +(\S+)\.$/, (m) => `value is ${m[1]}${m[2] ?? ""} ${m[3]}.`],
  [/^Instance type "(\w+)" is invalid\. Expected (.*)\.$/, (m) => `value type "${m[1]}" is invalid. Expected ${m[2]}.`],
  [/^Instance does not match ([\s\S]*)$/, (m) => `value does not match ${m[1]}`],
  [/^Instance does not have (required property "[\s\S]*"|at least \d+ properties)\.$/, (m) => `value does not have ${m[1]}.`],
  [/^Instance has "([\s\S]*)" but does not have "([\s\S]*)"\.$/, (m, d) => `value has ${key(m[1], d)} but does not have ${key(m[2], d)}.`],
  [/^Instance has "([\s\S]*)" but does not match dependant schema\.$/, (m, d) => `value has ${key(m[1], d)} but does not match its dependent schema.`],
  [/^Property "([\s\S]*)" does not match (additional properties |unevaluated properties )?schema\.$/, (m, d) => `property ${key(m[1], d)} does not match ${m[2] ?? ""}schema.`],
  [/^Property "([\s\S]*)" matches pattern "[\s\S]*" but does not match associated schema\.$/, (m, d) => `property ${key(m[1], d)} does not match the schema of its pattern.`],
  [/^Property name "([\s\S]*)" does not match schema\.$/, (m, d) => `property name ${key(m[1], d)} does not match schema.`],
  [/^String is too (long|short) \((\d+) ([<>]) (\d+)\)\.$/, (m) => `string is too ${m[1]} (${count(m[2])} ${m[3]} ${m[4]}).`],
  [/^String does not match (format "[^"]*"|pattern)\.$/, (m) => `string does not match ${m[1]}.`],
  [/^Array has too (few|many) items \((\d+) ([<>]) (\d+)\)\.$/, (m) => `array has too ${m[1]} items (${count(m[2])} ${m[3]} ${m[4]}).`],
  [/^Array has less items \((\d+)\) than minContains \((\d+)\)\.$/, (m) => `array has fewer items (${count(m[1])}) than minContains (${m[2]}).`],
  [/^Array (must contain at least|may contain at most) (\d+) items matching schema\. (?:Only )?(\d+) items were found\.$/, (m) => `array ${m[1]} ${m[2]} items matching schema; ${count(m[3])} were found.`],
  [/^Duplicate items at indexes (\d+) and (\d+)\.$/, (m) => `duplicate items at indexes ${count(m[1])} and ${count(m[2])}.`],
  [/^(Array does not contain item matching schema|Array is empty\. It must contain at least one item matching the schema|Items did not match (?:additional items |unevaluated items )?schema)\.$/, (m) => `${m[1]}.`],
];

/** One validator message, reworded so that it quotes nothing the guest chose (see RULES). */
export function describeProblem(problem: { readonly keyword: string; readonly error: string }, declared: ReadonlySet<string>): string {
  for (const [pattern, render] of RULES) {
    const match = pattern.exec(problem.error);
    if (match !== null) return render(match, declared);
  }
  return `value does not satisfy the schema's ${/^[A-Za-z$]+$/.test(problem.keyword) ? `"${problem.keyword}"` : "rules"}`;
}
