/**
 * Names a generated host function must never take. Keywords and strict-mode reserved words make
 * `gh.delete(...)` legal but `const { delete } = gh` a syntax error, and the types file would not
 * parse; Object.prototype names and `then`/`toJSON` change how the module object behaves when it
 * is awaited, serialised or inspected.
 */
const KEYWORDS = [
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do",
  "else", "export", "extends", "finally", "for", "function", "if", "import", "in", "instanceof",
  "new", "return", "super", "switch", "this", "throw", "try", "typeof", "var", "void", "while",
  "with", "yield", "await", "enum", "null", "true", "false",
];

// Reserved only in strict-mode code, which modules and generated declarations are.
const STRICT_MODE_RESERVED = ["let", "static", "implements", "interface", "package", "private", "protected", "public"];

// Not reserved, but cannot be bound in strict code or shadow globals the guest relies on.
const RESTRICTED_BINDINGS = ["arguments", "eval", "undefined", "NaN", "Infinity"];

const OBJECT_PROTOTYPE = [
  "__proto__", "constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toString",
  "toLocaleString", "valueOf", "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
];

// `then` makes the module a thenable (await would call the tool); `toJSON` hijacks JSON.stringify.
const PROTOCOL_HOOKS = ["prototype", "then", "toJSON"];

export const RESERVED_JS_NAMES: ReadonlySet<string> = new Set([
  ...KEYWORDS,
  ...STRICT_MODE_RESERVED,
  ...RESTRICTED_BINDINGS,
  ...OBJECT_PROTOTYPE,
  ...PROTOCOL_HOOKS,
]);

export function isReservedJsName(name: string): boolean {
  return RESERVED_JS_NAMES.has(name);
}
