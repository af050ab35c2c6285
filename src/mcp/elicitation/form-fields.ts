import { z } from "zod";
import { McpvmError } from "../../util/errors.js";

/**
 * The fields of an elicitation form (MCP `elicitation/create`, form mode), read from its
 * `requestedSchema`: a flat object of primitive properties (string, number, integer, boolean,
 * single- and multi-select enums). Pure: the terminal, the gateway and the UI ask and check with it.
 */
export type FieldKind = "string" | "number" | "integer" | "boolean" | "choice" | "choices";

export interface Choice {
  readonly value: string;
  readonly label: string;
}

export interface FormField {
  readonly key: string;
  readonly title: string;
  readonly description?: string;
  readonly required: boolean;
  readonly kind: FieldKind;
  readonly choices?: readonly Choice[];
  readonly default?: unknown;
  readonly min?: number;
  readonly max?: number;
  readonly format?: string;
}

export type FieldAnswer = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

const titledOption = z.object({ const: z.string(), title: z.string().optional() });
const property = z
  .object({
    type: z.string().optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    enum: z.array(z.string()).optional(),
    enumNames: z.array(z.string()).optional(),
    oneOf: z.array(titledOption).optional(),
    anyOf: z.array(titledOption).optional(),
    items: z.object({ type: z.string().optional(), enum: z.array(z.string()).optional(), anyOf: z.array(titledOption).optional(), oneOf: z.array(titledOption).optional() }).optional(),
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    minItems: z.number().optional(),
    maxItems: z.number().optional(),
    format: z.string().optional(),
    default: z.unknown().optional(),
  })
  .loose();
const requestedSchema = z.object({ type: z.literal("object").optional(), properties: z.record(z.string(), property).default({}), required: z.array(z.string()).optional() }).loose();

/** A server asked for a form whose schema is not a flat object of primitive fields. */
export class ElicitationSchemaError extends McpvmError<"MCP_ELICITATION_SCHEMA"> {}

/** Reads the form's fields; a schema that is not a flat object of primitives throws ElicitationSchemaError. */
export function formFields(schema: unknown): FormField[] {
  const parsed = requestedSchema.safeParse(schema ?? {});
  if (!parsed.success) throw new ElicitationSchemaError("MCP_ELICITATION_SCHEMA", `the requested schema is not an object of fields: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  const required = new Set(parsed.data.required ?? []);
  return Object.entries(parsed.data.properties).map(([key, spec]) => fieldOf(key, spec, required.has(key)));
}

function choicesOf(spec: { enum?: string[] | undefined; enumNames?: string[] | undefined; oneOf?: z.infer<typeof titledOption>[] | undefined; anyOf?: z.infer<typeof titledOption>[] | undefined }): Choice[] | undefined {
  const titled = spec.oneOf ?? spec.anyOf;
  if (titled !== undefined) return titled.map((option) => ({ value: option.const, label: option.title ?? option.const }));
  if (spec.enum !== undefined) return spec.enum.map((value, index) => ({ value, label: spec.enumNames?.[index] ?? value }));
  return undefined;
}

function fieldOf(key: string, spec: z.infer<typeof property>, required: boolean): FormField {
  const base = {
    key,
    title: spec.title ?? key,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    required,
    ...(spec.default === undefined ? {} : { default: spec.default }),
  };
  if (spec.type === "array") {
    const choices = spec.items === undefined ? undefined : choicesOf(spec.items);
    if (choices === undefined) throw new ElicitationSchemaError("MCP_ELICITATION_SCHEMA", `field "${key}" is an array without a list of choices`);
    return { ...base, kind: "choices", choices, ...bounds(spec.minItems, spec.maxItems) };
  }
  const choices = choicesOf(spec);
  if (choices !== undefined) return { ...base, kind: "choice", choices };
  switch (spec.type) {
    case "boolean":
      return { ...base, kind: "boolean" };
    case "number":
    case "integer":
      return { ...base, kind: spec.type, ...bounds(spec.minimum, spec.maximum) };
    case "string":
    case undefined:
      return { ...base, kind: "string", ...bounds(spec.minLength, spec.maxLength), ...(spec.format === undefined ? {} : { format: spec.format }) };
    default:
      throw new ElicitationSchemaError("MCP_ELICITATION_SCHEMA", `field "${key}" has type "${spec.type}", which a form cannot ask for`);
  }
}

function bounds(min: number | undefined, max: number | undefined): { min?: number; max?: number } {
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

const YES = /^(y|yes|true|1)$/i;
const NO = /^(n|no|false|0)$/i;

/**
 * A typed answer to one field. Empty text takes the default, or leaves an optional field out
 * (`value: undefined`); a choice is given by its number, its value or its label.
 */
export function parseFieldAnswer(field: FormField, raw: string): FieldAnswer {
  const text = raw.trim();
  if (text === "") {
    if (field.default !== undefined) return { ok: true, value: field.default };
    return field.required ? { ok: false, message: `${field.title} is required` } : { ok: true, value: undefined };
  }
  switch (field.kind) {
    case "boolean":
      if (YES.test(text)) return { ok: true, value: true };
      if (NO.test(text)) return { ok: true, value: false };
      return { ok: false, message: `${field.title}: answer y or n` };
    case "number":
    case "integer":
      return checkValue(field, Number(text));
    case "choice": {
      const choice = pickChoice(field.choices ?? [], text);
      return choice === undefined ? { ok: false, message: `${field.title}: choose one of ${listChoices(field)}` } : { ok: true, value: choice };
    }
    case "choices": {
      const picked = text.split(",").map((part) => pickChoice(field.choices ?? [], part.trim()));
      if (picked.some((choice) => choice === undefined)) return { ok: false, message: `${field.title}: choose from ${listChoices(field)}, separated by commas` };
      return checkValue(field, [...new Set(picked as string[])]);
    }
    case "string":
      return checkValue(field, text);
  }
}

/** Checks a value given whole (the gateway's client or a page answered the form): the reason it does not fit, or undefined. */
export function fieldProblem(field: FormField, value: unknown): string | undefined {
  const checked = checkValue(field, value);
  return checked.ok ? undefined : checked.message;
}

function checkValue(field: FormField, value: unknown): FieldAnswer {
  const fail = (message: string): FieldAnswer => ({ ok: false, message: `${field.title}: ${message}` });
  switch (field.kind) {
    case "boolean":
      return typeof value === "boolean" ? { ok: true, value } : fail("must be true or false");
    case "number":
    case "integer":
      if (typeof value !== "number" || !Number.isFinite(value)) return fail("must be a number");
      if (field.kind === "integer" && !Number.isInteger(value)) return fail("must be a whole number");
      if (field.min !== undefined && value < field.min) return fail(`must be at least ${field.min}`);
      if (field.max !== undefined && value > field.max) return fail(`must be at most ${field.max}`);
      return { ok: true, value };
    case "choice":
      return typeof value === "string" && (field.choices ?? []).some((choice) => choice.value === value) ? { ok: true, value } : fail(`must be one of ${listChoices(field)}`);
    case "choices":
      if (!Array.isArray(value) || !value.every((item) => typeof item === "string" && (field.choices ?? []).some((choice) => choice.value === item))) return fail(`must be a list from ${listChoices(field)}`);
      if (field.min !== undefined && value.length < field.min) return fail(`choose at least ${field.min}`);
      if (field.max !== undefined && value.length > field.max) return fail(`choose at most ${field.max}`);
      return { ok: true, value };
    case "string":
      if (typeof value !== "string") return fail("must be text");
      if (field.min !== undefined && value.length < field.min) return fail(`must be at least ${field.min} characters`);
      if (field.max !== undefined && value.length > field.max) return fail(`must be at most ${field.max} characters`);
      return formatProblem(field.format, value) === undefined ? { ok: true, value } : fail(formatProblem(field.format, value) as string);
  }
}

function formatProblem(format: string | undefined, value: string): string | undefined {
  switch (format) {
    case "email":
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? undefined : "must be an e-mail address";
    case "uri":
      return URL.canParse(value) ? undefined : "must be a URL such as https://example.com";
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? undefined : "must be a date as YYYY-MM-DD";
    case "date-time":
      return Number.isNaN(Date.parse(value)) ? "must be a date and time such as 2026-11-25T14:30:00Z" : undefined;
    default:
      return undefined;
  }
}

function pickChoice(choices: readonly Choice[], text: string): string | undefined {
  const index = /^\d+$/.test(text) ? Number(text) - 1 : -1;
  if (index >= 0 && index < choices.length) return choices[index]!.value;
  const lower = text.toLowerCase();
  return choices.find((choice) => choice.value === text || choice.label.toLowerCase() === lower || choice.value.toLowerCase() === lower)?.value;
}

function listChoices(field: FormField): string {
  return (field.choices ?? []).map((choice, index) => `${index + 1}) ${choice.label}`).join(", ");
}

/** Every problem of a whole answer (content of an `accept`): missing required fields, values that do not fit, unknown keys. */
export function contentProblems(fields: readonly FormField[], content: Readonly<Record<string, unknown>>): string[] {
  const known = new Set(fields.map((field) => field.key));
  const problems = Object.keys(content).filter((key) => !known.has(key)).map((key) => `"${key}" is not a field of this form`);
  for (const field of fields) {
    const value = content[field.key];
    if (value === undefined) {
      if (field.required) problems.push(`${field.title} is required`);
      continue;
    }
    const problem = fieldProblem(field, value);
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}
