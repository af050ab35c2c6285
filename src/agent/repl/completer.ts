export interface CompletionCommand {
  readonly name: string;
  readonly subcommands?: readonly string[];
}

export type NameKind = "server" | "plugin" | "profile" | "known-server";

export interface CompletionSource {
  readonly commands: readonly CompletionCommand[];
  names(kind: NameKind): Promise<readonly string[]>;
}

/** Which names complete the argument after `/<command> <sub>`. */
function argumentKind(command: string, sub: string): NameKind | undefined {
  if (command === "mcp") return sub === "add" ? "known-server" : ["info", "types", "approve", "revoke", "enable", "disable", "remove"].includes(sub) ? "server" : undefined;
  if (command === "plugin") return sub === "list" ? undefined : "plugin";
  if (command === "profile") return sub === "apply" || sub === "show" ? "profile" : undefined;
  return undefined;
}

/**
 * Tab completion for slash commands: the command, its subcommand, then server / plugin / profile
 * names. Returns readline's [candidates, text being completed]; plain chat is never completed.
 */
export async function completeLine(line: string, source: CompletionSource): Promise<[string[], string]> {
  if (!line.startsWith("/")) return [[], line];
  const words = line.slice(1).split(/\s+/);
  const current = words[words.length - 1] ?? "";
  const match = (options: readonly string[]) => options.filter((o) => o.startsWith(current)).sort();
  if (words.length === 1) return [match(source.commands.map((c) => c.name)).map((n) => `/${n}`), line];
  const command = source.commands.find((c) => c.name === words[0]);
  if (command === undefined) return [[], current];
  if (words.length === 2) return [match(command.subcommands ?? []), current];
  const kind = argumentKind(command.name, words[1] ?? "");
  // profile apply stacks several names; the others take one.
  if (kind === undefined || (words.length > 3 && !(command.name === "profile" && words[1] === "apply"))) return [[], current];
  return [match(await source.names(kind)), current];
}
