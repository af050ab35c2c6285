import { displayInline } from "../../terminal/display.js";
import { filledWithVariables } from "../config/placeholders.js";
import { weakness, type Weakness } from "../config/secret-values.js";
import type { ApprovalSubject } from "./hash.js";

export interface WeakSecret {
  /** `env.PIN`, `headers.X-Pin`, or `env.DB_URL (${DB_PASS})` when the weak part is a variable it reads. */
  readonly field: string;
  readonly weakness: Exclude<Weakness, undefined>;
  readonly length: number;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The env and header values of a definition that masking cannot keep from guest code: too short to
 * be masked at all, or masked but guessable (under 8 characters, digits only, one plain word).
 * Values read from `${VAR}` are checked when `env` is given; `${input:…}` answers are unknown here.
 */
export function weakSecrets(subject: ApprovalSubject, env: Env = {}): WeakSecret[] {
  const found: WeakSecret[] = [];
  const check = (kind: "env" | "header", entries: Readonly<Record<string, string>> | undefined) => {
    for (const [name, template] of Object.entries(entries ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const filled = filledWithVariables(template, env);
      if (filled === null) continue;
      const field = `${kind === "env" ? "env" : "headers"}.${name}`;
      const whole = weakness(name, filled.value, kind);
      if (whole !== undefined) found.push({ field, weakness: whole, length: filled.value.length });
      for (const [variable, value] of filled.variables) {
        const part = weakness(variable, value);
        if (part !== undefined && value !== filled.value) found.push({ field: `${field} (\${${variable}})`, weakness: part, length: value.length });
      }
    }
  };
  check("env", subject.env);
  check("header", subject.headers);
  return found;
}

const DESCRIBED: Record<WeakSecret["weakness"], string> = {
  unmasked: "is too short to be masked at all",
  short: "is short",
  digits: "is digits only",
  word: "is one plain word",
};

/**
 * Lines for the approval prompt (empty when every value is safe to mask). Masking replaces a
 * secret wherever it shows up, so guest code that can make a guess show up (through a server that
 * echoes its input) learns which guess was masked; only a value nobody can guess is protected.
 */
export function weakSecretWarning(subject: ApprovalSubject, env: Env = {}): string[] {
  const weak = weakSecrets(subject, env);
  if (weak.length === 0) return [];
  const listed = weak.map((w) => `${displayInline(w.field)} (${w.length} characters) ${DESCRIBED[w.weakness]}`).join("; ");
  return [
    `  NOTE: ${listed}.`,
    "        mcpvm masks secrets by value, but guest code can still guess a short, digits-only or one-word value",
    "        (by sending guesses to a tool that echoes them). Prefer a long random value (8+ characters, not only digits).",
  ];
}
