import { COMMAND_SUMMARIES } from "./summaries.js";
import { COMPLETION_SCRIPTS } from "../completion/scripts.js";
import { SHELL_NAMES } from "../completion/spec.js";
import { parseCommandArgs, requirePositional, UsageError } from "../../terminal/args.js";
import type { Command } from "../../terminal/command.js";
import { ExitCode } from "../../terminal/exit-codes.js";
import { didYouMean } from "../../util/suggest.js";

const USAGE = `Usage: mcpvm completion bash|zsh|fish

Prints a shell completion script: commands, subcommands and flags, and the names in your config
(servers, their approved tools, toolsets, profiles, plugins), read when you press Tab. No server
is started to complete a name.

  bash:  source <(mcpvm completion bash)          (add it to ~/.bashrc)
  zsh:   source <(mcpvm completion zsh)           (in ~/.zshrc, after compinit)
  fish:  mcpvm completion fish > ~/.config/fish/completions/mcpvm.fish`;

export const completionCommand: Command = {
  name: "completion",
  summary: COMMAND_SUMMARIES.completion,
  usage: USAGE,
  async run(args, context) {
    const { positionals } = parseCommandArgs("completion", args, {}, 1);
    const shell = requirePositional("completion", positionals, 0, "a shell: bash, zsh or fish");
    const script = Object.hasOwn(COMPLETION_SCRIPTS, shell) ? COMPLETION_SCRIPTS[shell] : undefined;
    if (script === undefined) throw new UsageError("USAGE", `mcpvm completion: no script for "${shell}"${didYouMean(shell, SHELL_NAMES)} (bash, zsh or fish).`);
    context.io.stdout.write(script);
    return ExitCode.Ok;
  },
};
