import { describe, expect, it } from "vitest";
import { ToolArgumentValidator } from "../../../src/mcp/validate/arguments.js";
import { declaredNames, describePath, describeProblem } from "../../../src/mcp/validate/problem-wording.js";

/** A schema that trips most keywords of the validator, each one with guest data in its raw message. */
const schema = {
  type: "object",
  properties: {
    n: { type: "number", maximum: 10, minimum: -5, multipleOf: 2 },
    short: { type: "string", maxLength: 3 },
    long: { type: "string", minLength: 2000 },
    list: { type: "array", maxItems: 2, uniqueItems: true, items: { type: "string" } },
    many: { type: "array", minItems: 2000 },
    map: { type: "object", additionalProperties: { type: "string" } },
    named: { type: "object", propertyNames: { pattern: "^[a-z]+$" } },
    closed: { type: "object", properties: { ok: { type: "boolean" } }, additionalProperties: false },
    kind: { enum: ["text", "json"] },
  },
  required: ["kind"],
};

const validator = new ToolArgumentValidator(schema);

/** Arguments built around one guest-chosen value `v` (digits, so it could be a PIN; 4 digits keep the lists small). */
function argsAround(v: string): Record<string, unknown> {
  return {
    kind: "text",
    n: Number(v),
    short: "x".repeat(Number(v)),
    list: Array.from({ length: Number(v) + 1 }, () => "same"),
    map: { [v]: 5 },
    named: { [`${v}`]: 1 },
    closed: { [v]: true },
    [v]: "unexpected key at the top",
  };
}

function allText(v: string): string {
  return JSON.stringify(validator.check(argsAround(v)));
}

describe("argument problems quote nothing the guest chose (redaction must not become an oracle)", () => {
  it("a 4-digit value the guest sent appears nowhere in the problems, as a key, a value, a length, an index or a count", () => {
    const text = allText("4829");
    expect(text).not.toContain("4829");
    // …yet the problems still say what is wrong, in the schema's own words.
    expect(text).toContain("value is greater than 10");
    expect(text).toContain("string is too long (1000 or more > 3)");
    expect(text).toContain("‹a key of 4 characters›");
    expect(text).toContain("list");
  });

  it("two guesses of the same length get exactly the same text, so masking one of them would show nowhere", () => {
    // (Both odd: `multipleOf: 2` fails for each, as it should.)
    expect(allText("4829")).toBe(allText("4827"));
    expect(allText("1001")).toBe(allText("9999"));
  });

  it("keeps small numbers and declared names, which help and cannot be masked (under 4 characters)", () => {
    const problems = validator.check({ kind: "text", list: ["a", "a", "b"], n: 11 });
    expect(problems).toContainEqual({ path: "list", message: "array has too many items (3 > 2)." });
    expect(problems).toContainEqual({ path: "list", message: "duplicate items at indexes 0 and 1." });
    expect(problems).toContainEqual({ path: "n", message: "value is greater than 10." });
  });

  it("an item deep in a list is named by a small index, a large one is not", () => {
    expect(describePath("#/list/3/name", new Set(["list", "name"]))).toBe("list[3].name");
    expect(describePath("#/list/482915/name", new Set(["list", "name"]))).toBe("list[1000 or more].name");
    expect(describePath("#/secret%20guess", new Set())).toBe("‹a key of 12 characters›");
  });

  it("a quote inside a guest key cannot smuggle text past the wording", () => {
    const declared = declaredNames(schema);
    const raw = 'Property "x" does not match schema. 482915 "y" does not match additional properties schema.';
    expect(describeProblem({ keyword: "additionalProperties", error: raw }, declared)).not.toContain("482915");
  });

  it("an unknown message becomes a generic one naming the keyword", () => {
    expect(describeProblem({ keyword: "custom", error: "Something about 482915." }, new Set())).toBe('value does not satisfy the schema\'s "custom"');
  });

  it("collects the names a schema declares, nested and required ones included", () => {
    expect([...declaredNames(schema)].sort()).toEqual(["closed", "kind", "list", "long", "many", "map", "n", "named", "ok", "short"]);
  });
});
