export { runRepl, type ReplOptions } from "./repl.js";
export { LineReader, type ReadOutcome, type ReadMode, type LineReaderOptions, type AsyncCompleter } from "./line-reader.js";
export { completeLine, type CompletionSource, type CompletionCommand, type NameKind } from "./completer.js";
export { loadHistory, appendHistory, keepInHistory, HISTORY_SIZE } from "./history.js";
export { processInterrupts, ManualInterrupts, type InterruptSource } from "./interrupts.js";
export { ReplPerson } from "./person.js";
export { ChatSession } from "./session.js";
export { slashCommands, findSlashCommand, type SlashCommand, type ReplControls } from "./slash-commands.js";
export { splitArgs, renderToolCall, renderToolResult, preview } from "./render.js";
