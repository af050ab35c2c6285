import { describe, expect, it } from "vitest";
import { contentProblems, formFields, parseFieldAnswer, type FormField } from "../../../src/mcp/elicitation/form-fields.js";

// The shapes of the 2025-11-25 elicitation schema: string formats, numbers, booleans, legacy and titled enums, multi-select.
const schema = {
  type: "object",
  properties: {
    name: { type: "string", title: "Your name", minLength: 2 },
    email: { type: "string", format: "email" },
    age: { type: "integer", minimum: 0, maximum: 150, default: 30 },
    subscribe: { type: "boolean", default: false },
    colour: { type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"] },
    size: { type: "string", oneOf: [{ const: "s", title: "Small" }, { const: "l", title: "Large" }], default: "s" },
    toppings: { type: "array", items: { anyOf: [{ const: "ham", title: "Ham" }, { const: "egg", title: "Egg" }] }, maxItems: 1 },
    birthday: { type: "string", format: "date" },
  },
  required: ["name", "colour"],
};

function field(key: string): FormField {
  const found = formFields(schema).find((f) => f.key === key);
  if (found === undefined) throw new Error(`no field ${key}`);
  return found;
}

describe("elicitation form fields", () => {
  it("reads every field with its kind, title, requiredness, choices and default", () => {
    const fields = formFields(schema);
    expect(fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ["name", "string", true],
      ["email", "string", false],
      ["age", "integer", false],
      ["subscribe", "boolean", false],
      ["colour", "choice", true],
      ["size", "choice", false],
      ["toppings", "choices", false],
      ["birthday", "string", false],
    ]);
    expect(field("colour").choices).toEqual([{ value: "r", label: "Red" }, { value: "g", label: "Green" }]);
    expect(field("name").title).toBe("Your name");
  });

  it("applies defaults to empty answers and leaves optional fields out", () => {
    expect(parseFieldAnswer(field("age"), "")).toEqual({ ok: true, value: 30 });
    expect(parseFieldAnswer(field("size"), " ")).toEqual({ ok: true, value: "s" });
    expect(parseFieldAnswer(field("email"), "")).toEqual({ ok: true, value: undefined });
    expect(parseFieldAnswer(field("name"), "")).toEqual({ ok: false, message: "Your name is required" });
  });

  it("takes a choice by number, value or label, and refuses others naming the choices", () => {
    expect(parseFieldAnswer(field("colour"), "2")).toEqual({ ok: true, value: "g" });
    expect(parseFieldAnswer(field("colour"), "red")).toEqual({ ok: true, value: "r" });
    expect(parseFieldAnswer(field("colour"), "blue")).toEqual({ ok: false, message: "colour: choose one of 1) Red, 2) Green" });
    expect(parseFieldAnswer(field("toppings"), "Ham")).toEqual({ ok: true, value: ["ham"] });
    expect(parseFieldAnswer(field("toppings"), "1, 2")).toEqual({ ok: false, message: "toppings: choose at most 1" });
  });

  it("checks numbers, booleans, lengths and formats", () => {
    expect(parseFieldAnswer(field("age"), "41")).toEqual({ ok: true, value: 41 });
    expect(parseFieldAnswer(field("age"), "4.5")).toMatchObject({ ok: false, message: "age: must be a whole number" });
    expect(parseFieldAnswer(field("age"), "200")).toMatchObject({ ok: false, message: "age: must be at most 150" });
    expect(parseFieldAnswer(field("subscribe"), "yes")).toEqual({ ok: true, value: true });
    expect(parseFieldAnswer(field("subscribe"), "maybe")).toMatchObject({ ok: false });
    expect(parseFieldAnswer(field("name"), "A")).toMatchObject({ ok: false, message: "Your name: must be at least 2 characters" });
    expect(parseFieldAnswer(field("email"), "ada@example.com")).toEqual({ ok: true, value: "ada@example.com" });
    expect(parseFieldAnswer(field("email"), "ada")).toMatchObject({ ok: false, message: "email: must be an e-mail address" });
    expect(parseFieldAnswer(field("birthday"), "2026-02-30x")).toMatchObject({ ok: false });
    expect(parseFieldAnswer(field("birthday"), "1815-12-10")).toEqual({ ok: true, value: "1815-12-10" });
  });

  it("lists every problem of a whole answer given at once", () => {
    expect(contentProblems(formFields(schema), { name: "Ada", colour: "r" })).toEqual([]);
    expect(contentProblems(formFields(schema), { colour: "x", age: "old", extra: 1 })).toEqual([
      '"extra" is not a field of this form',
      "Your name is required",
      "age: must be a number",
      "colour: must be one of 1) Red, 2) Green",
    ]);
  });

  it("refuses a schema that a form cannot ask for, with a typed error", () => {
    expect(() => formFields({ type: "object", properties: { nested: { type: "object" } } })).toThrow(expect.objectContaining({ code: "MCP_ELICITATION_SCHEMA" }));
    expect(() => formFields({ type: "object", properties: { list: { type: "array", items: { type: "string" } } } })).toThrow(/without a list of choices/);
  });
});
