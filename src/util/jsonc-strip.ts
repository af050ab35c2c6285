/**
 * VS Code's mcp.json and settings.json are JSONC: comments and trailing commas are allowed, and
 * real files use both. This removes them outside strings (keeping line breaks, so JSON.parse
 * positions still point at the right line) and leaves everything else to JSON.parse.
 */
export function stripJsonc(text: string): string {
  let out = "";
  let index = 0;
  while (index < text.length) {
    const char = text.charAt(index);
    if (char === '"') {
      const end = stringEnd(text, index);
      out += text.slice(index, end);
      index = end;
    } else if (text.startsWith("//", index)) {
      const end = text.indexOf("\n", index);
      index = end === -1 ? text.length : end;
    } else if (text.startsWith("/*", index)) {
      const end = text.indexOf("*/", index + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += text.slice(index, stop).replace(/[^\n]/g, "");
      index = stop;
    } else if (char === "," && closesNext(text, index + 1)) {
      index += 1;
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}

function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text.charAt(index);
    if (char === "\\") index += 2;
    else if (char === '"') return index + 1;
    else index += 1;
  }
  return text.length;
}

// True when only whitespace and comments stand between here and a closing bracket.
function closesNext(text: string, from: number): boolean {
  let index = from;
  while (index < text.length) {
    const char = text.charAt(index);
    if (/\s/.test(char)) index += 1;
    else if (text.startsWith("//", index)) {
      const end = text.indexOf("\n", index);
      index = end === -1 ? text.length : end;
    } else if (text.startsWith("/*", index)) {
      const end = text.indexOf("*/", index + 2);
      index = end === -1 ? text.length : end + 2;
    } else return char === "}" || char === "]";
  }
  return false;
}
