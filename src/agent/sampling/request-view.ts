import type { CreateMessageRequest } from "@modelcontextprotocol/client";
import { displayBlock, displayInline } from "../../terminal/display.js";

/** What a server sent in `sampling/createMessage`, as the SDK validated it. */
export type SamplingParams = CreateMessageRequest["params"];

/** One message as the person reads it: its role and its text, with non-text parts described. */
export interface ViewedMessage {
  readonly role: string;
  readonly text: string;
}

/**
 * A sampling request read for showing and deciding. Pure: the REPL, `run` and `mcp call` render
 * it the same way, and tests check it without a terminal.
 */
export interface SamplingView {
  readonly server: string;
  readonly systemPrompt: string | undefined;
  readonly messages: readonly ViewedMessage[];
  readonly requestedMaxTokens: number;
  /** What the model may write: the server's maxTokens, bounded by the configured cap. */
  readonly grantedMaxTokens: number;
  readonly cap: number;
  readonly temperature: number | undefined;
  readonly stopSequences: readonly string[];
  readonly modelHints: readonly string[];
  /** "cost 0.3, speed 0.8, intelligence 0.5" where the server said. */
  readonly priorities: string | undefined;
  readonly includeContext: string | undefined;
  /** Why mcpvm cannot answer this request at all (tool use, audio), or undefined. */
  readonly unsupported: string | undefined;
  /** All characters of the system prompt and messages (what the model reads). */
  readonly inputChars: number;
}

type Block = SamplingParams["messages"][number]["content"] extends infer C ? (C extends readonly (infer B)[] ? B : C) : never;

function blocksOf(content: SamplingParams["messages"][number]["content"]): readonly Block[] {
  return (Array.isArray(content) ? content : [content]) as readonly Block[];
}

/** The text of a block, or a bracketed description of what is not text. */
function describeBlock(block: Block): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image ${block.mimeType}, ${approxBytes(block.data)}]`;
    case "audio":
      return `[audio ${block.mimeType}, ${approxBytes(block.data)}]`;
    case "tool_use":
      return `[tool call ${block.name}]`;
    case "tool_result":
      return "[tool result]";
    default:
      return `[${(block as { type: string }).type}]`;
  }
}

function approxBytes(base64: string): string {
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

/** Reads the request; `cap` is the configured bound on tokens the model may write. */
export function viewSamplingRequest(server: string, params: SamplingParams, cap: number): SamplingView {
  const messages = params.messages.map((m) => ({ role: m.role, text: blocksOf(m.content).map(describeBlock).join("\n") }));
  const kinds = new Set(params.messages.flatMap((m) => blocksOf(m.content).map((b) => b.type)));
  const unsupported =
    params.tools !== undefined && params.tools.length > 0
      ? "it offers the model tools, which mcpvm's sampling does not run"
      : kinds.has("tool_use") || kinds.has("tool_result")
        ? "it carries tool calls, which mcpvm's sampling does not run"
        : kinds.has("audio")
          ? "it holds audio, which mcpvm does not send to a model"
          : params.messages.length === 0
            ? "it has no messages"
            : undefined;
  const prefs = params.modelPreferences;
  const priorities = [
    prefs?.costPriority === undefined ? undefined : `cost ${prefs.costPriority}`,
    prefs?.speedPriority === undefined ? undefined : `speed ${prefs.speedPriority}`,
    prefs?.intelligencePriority === undefined ? undefined : `intelligence ${prefs.intelligencePriority}`,
  ].filter((p): p is string => p !== undefined);
  const systemPrompt = params.systemPrompt === undefined || params.systemPrompt === "" ? undefined : params.systemPrompt;
  return {
    server,
    systemPrompt,
    messages,
    requestedMaxTokens: params.maxTokens,
    grantedMaxTokens: grantedMaxTokens(params.maxTokens, cap),
    cap,
    temperature: params.temperature,
    stopSequences: params.stopSequences ?? [],
    modelHints: (prefs?.hints ?? []).map((h) => h.name).filter((n): n is string => typeof n === "string" && n !== ""),
    priorities: priorities.length === 0 ? undefined : priorities.join(", "),
    includeContext: params.includeContext === undefined || params.includeContext === "none" ? undefined : params.includeContext,
    unsupported,
    inputChars: (systemPrompt?.length ?? 0) + messages.reduce((sum, m) => sum + m.text.length, 0),
  };
}

/** The server's maxTokens, never above the cap, never below 1. */
export function grantedMaxTokens(requested: number, cap: number): number {
  return Math.max(1, Math.min(Math.floor(requested), Math.floor(cap)));
}

/** How much of each text is shown before it is shortened (the person is told how much was left out). */
export const SHOWN_CHARS = 2000;

function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n… (${(text.length - limit).toLocaleString("en-US")} more characters not shown)`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}

/**
 * The request as the person reads it before deciding: who asks, the system prompt, each message,
 * the token bound and the server's model preferences. Everything server-given is escaped
 * (display.ts); long texts are shortened with a note.
 */
export function renderSamplingRequest(view: SamplingView, model: string | undefined, inputTokens?: number): string {
  const lines = [`MCP server ${displayInline(view.server)} asks the model to write a reply (sampling).`];
  if (view.systemPrompt !== undefined) lines.push("  system prompt:", indent(displayBlock(shorten(view.systemPrompt, SHOWN_CHARS))));
  for (const message of view.messages) lines.push(`  ${displayInline(message.role)}:`, indent(displayBlock(shorten(message.text, SHOWN_CHARS))));
  const size = inputTokens === undefined ? `${view.inputChars.toLocaleString("en-US")} characters in` : `about ${inputTokens.toLocaleString("en-US")} tokens in`;
  const bound =
    view.grantedMaxTokens < view.requestedMaxTokens
      ? `at most ${view.grantedMaxTokens} tokens out (the server asked for ${view.requestedMaxTokens}; the cap is ${view.cap})`
      : `at most ${view.grantedMaxTokens} tokens out`;
  lines.push(`  size: ${size}, ${bound}`);
  const settings = [
    view.temperature === undefined ? undefined : `temperature ${view.temperature}`,
    view.stopSequences.length === 0 ? undefined : `stop at ${view.stopSequences.map((s) => JSON.stringify(displayInline(s))).join(", ")}`,
  ].filter((s): s is string => s !== undefined);
  if (settings.length > 0) lines.push(`  settings: ${settings.join(", ")}`);
  if (view.modelHints.length > 0 || view.priorities !== undefined) {
    const hints = view.modelHints.length === 0 ? "" : `prefers ${view.modelHints.map(displayInline).join(", ")}`;
    lines.push(`  model preferences: ${[hints, view.priorities].filter((p) => p !== undefined && p !== "").join("; ")}`);
  }
  if (view.includeContext !== undefined) lines.push(`  asks to include context from ${displayInline(view.includeContext)}: not included (mcpvm sends only the messages above)`);
  if (model !== undefined) lines.push(`  answered by: ${displayInline(model)}`);
  return lines.join("\n");
}
