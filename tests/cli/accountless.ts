import { readFileSync } from "node:fs";

/** A uid with no account (no passwd entry): with HOME unset, os.homedir() has nothing to fall back on and throws. */
export function accountless(): number {
  const taken = new Set(readFileSync("/etc/passwd", "utf8").split("\n").map((line) => Number(line.split(":")[2])));
  let candidate = 54_321;
  while (taken.has(candidate)) candidate++;
  return candidate;
}
