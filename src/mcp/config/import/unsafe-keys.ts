import { visit } from "jsonc-parser";
import { stripBom } from "../../../util/json-document.js";

/**
 * Keys that parseJsonDocument never creates (parseJsonSafe drops them so a file cannot pollute
 * prototypes). Dropping them is right, but dropping them without a word is not: a server named
 * `constructor` would vanish from the import report. So the import reads the text itself, before
 * parsing, and lists every such key with the path of the object that held it.
 */
export const UNSAFE_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

export interface UnsafeKey {
  /** Path of the object holding the key (property names and array indexes). */
  readonly parent: readonly (string | number)[];
  readonly key: string;
}

/** Every `__proto__` / `constructor` / `prototype` key in a JSON or JSONC text, in document order. */
export function unsafeKeysInText(text: string): UnsafeKey[] {
  const found: UnsafeKey[] = [];
  visit(
    stripBom(text),
    {
      onObjectProperty: (property, _offset, _length, _line, _column, pathSupplier) => {
        if (UNSAFE_KEYS.includes(property)) found.push({ parent: [...pathSupplier()], key: property });
      },
    },
    { allowTrailingComma: true, disallowComments: false },
  );
  return found;
}

/** True when `path` starts with `prefix`. */
export function isUnder(path: readonly (string | number)[], prefix: readonly (string | number)[]): boolean {
  return prefix.every((part, index) => path[index] === part);
}
