import type { ModelMessage } from "ai";
import type { SamplingParams } from "./request-view.js";

type SamplingMessage = SamplingParams["messages"][number];
type Block = Exclude<SamplingMessage["content"], readonly unknown[]> | Extract<SamplingMessage["content"], readonly unknown[]>[number];

function blocks(message: SamplingMessage): readonly Block[] {
  return (Array.isArray(message.content) ? message.content : [message.content]) as readonly Block[];
}

/**
 * MCP sampling messages as AI SDK messages: text stays text; images go to the model as images in
 * user messages (an assistant cannot hold one there, so it is described). Tool use and audio are
 * refused earlier (request-view.ts). Pure.
 */
export function toModelMessages(messages: SamplingParams["messages"]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    if (message.role === "assistant") {
      const text = blocks(message)
        .map((b) => (b.type === "text" ? b.text : `[${b.type}]`))
        .join("\n");
      return { role: "assistant", content: [{ type: "text", text }] };
    }
    return {
      role: "user",
      content: blocks(message).map((b) => (b.type === "image" ? { type: "image" as const, image: b.data, mediaType: b.mimeType } : { type: "text" as const, text: b.type === "text" ? b.text : `[${b.type}]` })),
    };
  });
}

/** The AI SDK's finish reason in MCP's words (`endTurn`, `maxTokens`, or the reason itself). */
export function stopReasonOf(finishReason: string): string {
  if (finishReason === "stop") return "endTurn";
  if (finishReason === "length") return "maxTokens";
  return finishReason;
}
