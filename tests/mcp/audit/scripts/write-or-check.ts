import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A fitting script's last step: write the generated `text` to `target`, or with `--check` on the
 * command line say whether the checked-in file is what a fresh fit gives (exit code 1 when not).
 */
export function writeOrCheck(target: string, text: string): void {
  if (process.argv.includes("--check")) {
    const same = readFileSync(target, "utf8") === text;
    console.log(same ? "checked-in weights match a fresh fit" : "checked-in weights differ from a fresh fit");
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${path.relative(process.cwd(), target)}`);
  }
}
