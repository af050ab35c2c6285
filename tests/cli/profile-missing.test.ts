import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, makeHome, type TrustHome } from "../trust/helpers.js";

// An applied profile deleted from config.json afterwards: `profile show` and `profile list` used to
// list it as applied, as if it still existed. They now mark it missing and say what to do.

const homes: TrustHome[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await home.cleanup();
});

describe("mcpvm profile: an applied profile that was deleted", () => {
  it("show and list mark it missing, keep the others, and name the command that re-applies", async () => {
    const home = await makeHome({ servers: () => ({}) });
    homes.push(home);
    const file = join(home.dir, "config.json");
    const config = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    config.profiles = { work: { description: "short runs", limits: { wallMs: 15_000 } } };
    await writeFile(file, JSON.stringify(config));
    expect((await cli(home, ["profile", "apply", "work", "strict"])).code).toBe(0);

    const edited = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    delete edited.profiles;
    await writeFile(file, JSON.stringify(edited));

    const show = await cli(home, ["profile", "show"]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("applied profiles: work (missing) + strict");
    expect(show.stderr).toContain(`applied profile "work" no longer exists in ${file}`);
    expect(show.stderr).toContain("the settings it applied are still in effect; run `mcpvm profile apply strict`");

    const json = JSON.parse((await cli(home, ["profile", "show", "--json"])).stdout) as { active: string[]; missing: string[] };
    expect(json).toMatchObject({ active: ["work", "strict"], missing: ["work"] });

    const list = await cli(home, ["profile", "list"]);
    expect(list.stdout).toMatch(/work\s+-\s+applied, missing/);
    expect(list.stderr).toContain('applied profile "work" no longer exists');
    expect((JSON.parse((await cli(home, ["profile", "list", "--json"])).stdout) as { missing: string[] }).missing).toEqual(["work"]);
  });
});
