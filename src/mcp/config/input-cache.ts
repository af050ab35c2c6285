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

  value(input: McpInputDefinition, server: string, promptInput: PromptInput | undefined): Promise<string> {
    const cached = this.#values.get(input.id);
    if (cached) return cached;
    if (!promptInput) {
      return Promise.reject(
        new McpConfigError("MCP_CONFIG_INPUT_UNAVAILABLE", `server "${server}" needs input "${input.id}" but nothing can ask for it here; run mcpvm interactively (the REPL) to answer it`, {
          data: { server, input: input.id },
        }),
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
