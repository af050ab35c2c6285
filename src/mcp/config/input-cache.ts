import { McpConfigError } from "./errors.js";
import type { McpInputDefinition } from "./schema.js";

/**
 * Asks the user for one `${input:id}` value. Masking (for `password: true`) is the prompter's
 * job. Resolve undefined when the user dismisses the prompt.
 */
export type PromptInput = (input: McpInputDefinition, context: { readonly server: string }) => Promise<string | undefined>;

function optionValues(input: McpInputDefinition): string[] {
  return input.type === "pickString" ? input.options.map((option) => (typeof option === "string" ? option : option.value)) : [];
}

/**
 * The environment variable that answers `${input:id}` where no person can be asked (the gateway,
 * scripts, CI): `MCPVM_INPUT_` and the id upper-cased, other characters as `_`.
 */
export function inputEnvName(id: string): string {
  return `MCPVM_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

function checkAnswer(input: McpInputDefinition, answer: string | undefined, server: string): string {
  const value = answer === undefined || answer === "" ? input.default : answer;
  if (value === undefined || value === "") {
    throw new McpConfigError("MCP_CONFIG_INPUT_CANCELLED", `server "${server}" needs input "${input.id}" and no value was given; connect again and answer the prompt`, {
      data: { server, input: input.id },
    });
  }
  const options = optionValues(input);
  if (input.type === "pickString" && !options.includes(value)) {
    throw new McpConfigError("MCP_CONFIG_INPUT_INVALID", `input "${input.id}" for server "${server}" must be one of: ${options.join(", ")}`, {
      data: { server, input: input.id },
    });
  }
  return value;
}

/**
 * The session's answers to `${input:id}` prompts, by id, in memory only. Concurrent connects
 * that need the same id share one prompt; a failed or dismissed prompt is forgotten so the next
 * connect asks again, a given answer is never asked for twice.
 */
export class InputCache {
  readonly #values = new Map<string, Promise<string>>();

  has(id: string): boolean {
    return this.#values.has(id);
  }

  clear(): void {
    this.#values.clear();
  }

  value(
    input: McpInputDefinition,
    server: string,
    promptInput: PromptInput | undefined,
    env: Readonly<Record<string, string | undefined>> = {},
  ): Promise<string> {
    const cached = this.#values.get(input.id);
    if (cached) return cached;
    const fromEnv = env[inputEnvName(input.id)];
    // A value set in the environment wins over a prompt: it is how unattended runs answer.
    if (fromEnv !== undefined && fromEnv !== "") {
      try {
        return Promise.resolve(checkAnswer(input, fromEnv, server));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    if (!promptInput) {
      return Promise.reject(
        new McpConfigError(
          "MCP_CONFIG_INPUT_UNAVAILABLE",
          `server "${server}" needs input "${input.id}" but nothing can ask for it here; set ${inputEnvName(input.id)} in the environment, or run mcpvm on a terminal to answer it`,
          { data: { server, input: input.id, envVariable: inputEnvName(input.id) } },
        ),
      );
    }
    const pending = promptInput(input, { server }).then((answer) => checkAnswer(input, answer, server));
    this.#values.set(input.id, pending);
    pending.catch(() => {
      if (this.#values.get(input.id) === pending) this.#values.delete(input.id);
    });
    return pending;
  }
}
