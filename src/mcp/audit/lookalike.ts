import { foldConfusables } from "./confusables.js";
import { stripHidden } from "./normalise.js";

// Digits and letter pairs that read as a letter in most fonts.
const DIGIT_AS_LETTER: Readonly<Record<string, string>> = { "0": "o", "1": "l", "3": "e", "5": "s", "7": "t", "8": "b" };

/**
 * What a name looks like to a reader: invisible characters dropped, NFKC, look-alike letters folded
 * to ASCII, accents dropped, lower case, digits read as letters, `rn` as `m`, `vv` as `w`, `I` as
 * `l`, and separators (`_ - .` and spaces) removed. Two names with the same skeleton are the same
 * name to a person reading a confirmation prompt.
 */
export function nameSkeleton(name: string): string {
  const folded = foldConfusables(stripHidden(name).normalize("NFKC"))
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/I/g, "l")
    .toLowerCase();
  return folded
    .replace(/[0-9]/g, (d) => DIGIT_AS_LETTER[d] ?? d)
    .replace(/rn/g, "m")
    .replace(/vv/g, "w")
    .replace(/[\s_.-]+/g, "");
}

/** Case and separators only: `sendEmail` and `send_email` are two naming styles, not an imitation. */
function styleSkeleton(name: string): string {
  return name.toLowerCase().replace(/[\s_.-]+/g, "");
}

/** Another server's tool this name imitates: same skeleton, spelled with look-alike letters or digits. */
export function imitatedTool(name: string, others: ReadonlyArray<{ name: string; toolNames: readonly string[] }>): { server: string; tool: string } | undefined {
  const skeleton = nameSkeleton(name);
  if (skeleton.length < 3) return undefined;
  for (const server of others) {
    for (const tool of server.toolNames) {
      if (tool !== name && nameSkeleton(tool) === skeleton && styleSkeleton(tool) !== styleSkeleton(name)) return { server: server.name, tool };
    }
  }
  return undefined;
}
