import { KNOWN_SERVERS } from "../../mcp/known-servers.js";
import type { CompletionNames } from "./names.js";
import { COMMAND_NAMES, COMMANDS, GLOBAL_FLAGS, SHELL_NAMES, VALUE_FLAGS, type ArgumentKind, type SubcommandSpec } from "./spec.js";

/**
 * The candidates for the last of `words` (the words after `mcpvm`, the last one being the word
 * under the cursor, possibly empty). Pure apart from the names it is given. An empty answer
 * means "nothing of ours": the shell scripts then fall back to file names.
 */

interface Position {
  readonly command: string | undefined;
  readonly subcommand: string | undefined;
  /** Arguments before the cursor, flags and their values left out. */
  readonly args: readonly string[];
  /** A flag whose value is the word under the cursor. */
  readonly valueOf: string | undefined;
  readonly afterDashDash: boolean;
}

function takesValue(flag: string): boolean {
  return Object.hasOwn(VALUE_FLAGS, flag);
}

function locate(before: readonly string[]): Position {
  let command: string | undefined;
  let subcommand: string | undefined;
  const args: string[] = [];
  let valueOf: string | undefined;
  let afterDashDash = false;
  for (const word of before) {
    if (valueOf !== undefined) {
      valueOf = undefined;
      continue;
    }
    if (afterDashDash) continue;
    if (word === "--") {
      afterDashDash = true;
      continue;
    }
    if (word.startsWith("-") && word.length > 1) {
      if (!word.includes("=") && takesValue(word)) valueOf = word;
      continue;
    }
    if (command === undefined) command = word;
    else if (COMMANDS[command]?.subcommands !== undefined && subcommand === undefined) subcommand = word;
    else args.push(word);
  }
  return { command, subcommand, args, valueOf, afterDashDash };
}

function subcommandSpec(position: Position): SubcommandSpec | undefined {
  const spec = position.command === undefined || !Object.hasOwn(COMMANDS, position.command) ? undefined : COMMANDS[position.command];
  if (spec === undefined) return undefined;
  if (spec.subcommands === undefined) return { args: spec.args ?? [], ...(spec.repeat === undefined ? {} : { repeat: spec.repeat }), flags: spec.flags };
  const sub = position.subcommand ?? spec.defaultSubcommand;
  if (sub === undefined || !Object.hasOwn(spec.subcommands, sub)) return undefined;
  const found = spec.subcommands[sub] as SubcommandSpec;
  return { ...found, flags: found.flags ?? spec.flags };
}

function flagsAt(position: Position): readonly string[] {
  if (position.command === undefined) return GLOBAL_FLAGS;
  return [...(subcommandSpec(position)?.flags ?? []), ...GLOBAL_FLAGS];
}

function valuesOf(kind: ArgumentKind | readonly string[] | undefined, position: Position, names: CompletionNames): readonly string[] {
  if (kind === undefined) return [];
  if (typeof kind !== "string") return kind as readonly string[];
  const [first = "", second = ""] = position.args;
  switch (kind) {
    case "command":
      return COMMAND_NAMES;
    case "server":
      return names.servers();
    case "tool":
      return names.tools(first);
    case "tool-argument": {
      const given = new Set(position.args.slice(2).map((arg) => arg.split("=")[0]));
      return names.toolArguments(first, second).filter((key) => !given.has(key)).map((key) => `${key}=`);
    }
    case "server-tool":
      return names.servers().flatMap((server) => names.tools(server).map((tool) => `${server}.${tool}`));
    case "catalog":
      return KNOWN_SERVERS.map((server) => server.name);
    case "toolset":
      return names.toolsets();
    case "profile":
      return names.profiles();
    case "plugin":
      return names.plugins();
    case "shell":
      return SHELL_NAMES;
    case "file":
    case "none":
      return [];
  }
}

function argumentKind(position: Position): ArgumentKind | undefined {
  const spec = subcommandSpec(position);
  if (spec === undefined) return undefined;
  const index = position.args.length;
  if (index < spec.args.length) return spec.args[index];
  return spec.repeat === true ? spec.args[spec.args.length - 1] : undefined;
}

function candidatesFor(position: Position, current: string, names: CompletionNames): readonly string[] {
  if (position.afterDashDash) return [];
  if (position.valueOf !== undefined) return valuesOf(VALUE_FLAGS[position.valueOf], position, names);
  const inline = /^(--[a-z][a-z-]*)=/.exec(current);
  if (inline !== null) {
    const flag = inline[1] as string;
    return takesValue(flag) ? valuesOf(VALUE_FLAGS[flag], position, names).map((value) => `${flag}=${value}`) : [];
  }
  if (current.startsWith("-")) return flagsAt(position);
  if (position.command === undefined) return COMMAND_NAMES;
  const spec = Object.hasOwn(COMMANDS, position.command) ? COMMANDS[position.command] : undefined;
  if (spec?.subcommands !== undefined && position.subcommand === undefined) return Object.keys(spec.subcommands);
  return valuesOf(argumentKind(position), position, names);
}

export function completionCandidates(words: readonly string[], names: CompletionNames): string[] {
  const current = words[words.length - 1] ?? "";
  const position = locate(words.slice(0, -1));
  return [...new Set(candidatesFor(position, current, names))].filter((candidate) => candidate.startsWith(current));
}
