/**
 * The `${…}` language of config strings (env, args, url, headers, command, cwd):
 *   ${VAR}, ${env:VAR}        an environment variable of the mcpvm process at connect time
 *   ${VAR:-fallback}          the fallback when VAR is unset or empty (`${VAR:-}` allows empty)
 *   ${input:id}               a value asked for once per session (VS Code `inputs`)
 *   $${                       a literal `${`
 * Anything else inside `${…}` is an error, so a typo never becomes a literal string.
 */
export type TemplatePart =
  | { readonly kind: "text"; readonly value: string }
  | { readonly kind: "env"; readonly name: string; readonly fallback?: string }
  | { readonly kind: "input"; readonly id: string };

export type TemplateParse = { readonly ok: true; readonly parts: readonly TemplatePart[] } | { readonly ok: false; readonly problem: string };

const ENV_BODY = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?$/;
const INPUT_BODY = /^input:([A-Za-z0-9_.-]+)$/;

export function parseTemplate(text: string): TemplateParse {
  const parts: TemplatePart[] = [];
  let literal = "";
  let index = 0;
  while (index < text.length) {
    if (text.startsWith("$${", index)) {
      literal += "${";
      index += 3;
      continue;
    }
    if (!text.startsWith("${", index)) {
      literal += text.charAt(index);
      index += 1;
      continue;
    }
    const close = text.indexOf("}", index + 2);
    if (close === -1) return { ok: false, problem: `"${text.slice(index)}" has no closing "}" (write $\${ for a literal \${)` };
    const body = text.slice(index + 2, close);
    const env = ENV_BODY.exec(body);
    const input = INPUT_BODY.exec(body);
    if (!env && !input) {
      return { ok: false, problem: `"\${${body}}" is not a supported placeholder (use \${VAR}, \${env:VAR}, \${VAR:-default} or \${input:id})` };
    }
    if (literal !== "") parts.push({ kind: "text", value: literal });
    literal = "";
    if (input) parts.push({ kind: "input", id: input[1] ?? "" });
    else if (env) parts.push(env[2] === undefined ? { kind: "env", name: env[1] ?? "" } : { kind: "env", name: env[1] ?? "", fallback: env[2] });
    index = close + 1;
  }
  if (literal !== "") parts.push({ kind: "text", value: literal });
  return { ok: true, parts };
}

/** The `${input:id}` ids a string refers to (empty when it does not parse). */
export function inputReferences(text: string): string[] {
  const parsed = parseTemplate(text);
  if (!parsed.ok) return [];
  return parsed.parts.flatMap((part) => (part.kind === "input" ? [part.id] : []));
}

/** The environment variable names a string refers to (empty when it does not parse). */
export function variableReferences(text: string): string[] {
  const parsed = parseTemplate(text);
  if (!parsed.ok) return [];
  return parsed.parts.flatMap((part) => (part.kind === "env" ? [part.name] : []));
}

/**
 * `text` with its `${VAR}` references filled from `env` by resolve-launch.ts's rules (an empty value takes the default),
 * for a check made before launch; null when that is known only at launch (`${input:…}`, or a variable unset without a default).
 */
export function filledFromEnvironment(text: string, env: Readonly<Record<string, string | undefined>>): string | null {
  return filledWithVariables(text, env)?.value ?? null;
}

/** As `filledFromEnvironment`, with the variables whose own (non-empty) values went in, by name. */
export function filledWithVariables(text: string, env: Readonly<Record<string, string | undefined>>): { value: string; variables: [string, string][] } | null {
  const parsed = parseTemplate(text);
  if (!parsed.ok) return null;
  let value = "";
  const variables: [string, string][] = [];
  for (const part of parsed.parts) {
    if (part.kind === "text") value += part.value;
    else if (part.kind === "input") return null;
    else {
      const read = env[part.name];
      const filled = read !== undefined && read !== "" ? read : part.fallback;
      if (filled === undefined) return null;
      if (read !== undefined && read !== "") variables.push([part.name, read]);
      value += filled;
    }
  }
  return { value, variables };
}
