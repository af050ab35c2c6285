import type { GuestFormatter } from "./native.js";

/**
 * console.* argument formatting. RUNS INSIDE THE SANDBOX (embedded via Function.prototype.toString):
 * no references outside this function. Getters, Proxies and toString run here, in the guest, and a
 * value that throws while being inspected prints as a placeholder instead of failing the log call.
 */
export function createGuestFormatter(): GuestFormatter {
  const isArray = Array.isArray;
  const keysOf = Object.keys;
  const Bytes = Uint8Array;
  // Taken now: a script that replaces the globals must not change how its values print.
  const MapClass = Map;
  const SetClass = Set;
  const DateClass = Date;
  const RegExpClass = RegExp;
  // mcpvm's own frames (as in a thrown error's stack; the same files as INTERNAL_FRAME in
  // host/outcome.ts): the script's are the ones that help.
  const OWN_FRAME = /mcpvm-(?:bootstrap|prelude|tools|modules|format|diagnostics|base64)\.js/;
  const MAX_ITEMS = 100;
  const MAX_DEPTH = 3;

  function inspect(value: unknown, depth: number, seen: unknown[]): string {
    switch (typeof value) {
      case "string":
        return depth === 0 ? value : JSON.stringify(value);
      case "number":
      case "boolean":
      case "undefined":
        return String(value);
      case "bigint":
        return `${String(value)}n`;
      case "symbol":
        return value.toString();
      case "function":
        return `[Function: ${value.name || "(anonymous)"}]`;
    }
    if (value === null) return "null";
    if (seen.indexOf(value) !== -1) return "[Circular]";
    if (value instanceof Error) {
      const head = `${value.name}: ${value.message}`;
      const frames = typeof value.stack === "string" ? value.stack.split("\n").filter((line) => line.trim() !== "" && !OWN_FRAME.test(line)) : [];
      return frames.length > 0 ? `${head}\n${frames.join("\n")}` : head;
    }
    // Their state is not in own keys: printed as their keys they were all `{}`.
    if (value instanceof DateClass) return isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
    if (value instanceof RegExpClass) return String(value);
    if (value instanceof Bytes) {
      const shown = Array.prototype.slice.call(value, 0, MAX_ITEMS).join(", ");
      return `Uint8Array(${value.length}) [${shown}${value.length > MAX_ITEMS ? ", ..." : ""}]`;
    }
    if (depth >= MAX_DEPTH) return isArray(value) ? "[Array]" : value instanceof MapClass ? "[Map]" : value instanceof SetClass ? "[Set]" : "[Object]";
    const inner = seen.concat([value]);
    if (value instanceof MapClass || value instanceof SetClass) {
      const isMap = value instanceof MapClass;
      const items: string[] = [];
      for (const entry of value as Iterable<unknown>) {
        if (items.length === MAX_ITEMS) break;
        const pair = entry as [unknown, unknown];
        items.push(isMap ? `${inspect(pair[0], depth + 1, inner)} => ${inspect(pair[1], depth + 1, inner)}` : inspect(entry, depth + 1, inner));
      }
      if (value.size > MAX_ITEMS) items.push(`... ${value.size - MAX_ITEMS} more items`);
      return `${isMap ? "Map" : "Set"}(${value.size}) {${items.length === 0 ? "" : ` ${items.join(", ")} `}}`;
    }
    if (isArray(value)) {
      const items: string[] = [];
      for (let i = 0; i < value.length && i < MAX_ITEMS; i++) items.push(inspect(value[i], depth + 1, inner));
      if (value.length > MAX_ITEMS) items.push(`... ${value.length - MAX_ITEMS} more items`);
      return `[ ${items.join(", ")} ]`.replace("[  ]", "[]");
    }
    const record = value as Record<string, unknown>;
    const keys = keysOf(record);
    const parts: string[] = [];
    for (let i = 0; i < keys.length && i < MAX_ITEMS; i++) {
      const key = keys[i] as string;
      const label = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
      parts.push(`${label}: ${inspect(record[key], depth + 1, inner)}`);
    }
    if (keys.length > MAX_ITEMS) parts.push(`... ${keys.length - MAX_ITEMS} more keys`);
    return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
  }

  return (args) => {
    const parts: string[] = [];
    for (const arg of args) {
      try {
        parts.push(inspect(arg, 0, []));
      } catch {
        parts.push("[Uninspectable]");
      }
    }
    return parts.join(" ");
  };
}
