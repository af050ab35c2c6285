import { describe, expect, it } from "vitest";
import { collapseRepeatedFrames } from "../../../src/sandbox/host/stack-repeats.js";

const frame = "    at down (script.js:1:43)";

describe("collapseRepeatedFrames", () => {
  it("keeps three copies of a frame repeated in a row and counts the rest", () => {
    const frames = ["    at leaf (script.js:2:1)", ...Array.from({ length: 1361 }, () => frame), "    at <anonymous> (script.js:3:1)"].join("\n");
    expect(collapseRepeatedFrames(frames).split("\n")).toEqual([
      "    at leaf (script.js:2:1)",
      frame,
      frame,
      frame,
      "    … the frame above 1,358 more times",
      "    at <anonymous> (script.js:3:1)",
    ]);
  });

  it("leaves runs of three or fewer, and different frames, as they are", () => {
    const frames = [frame, frame, frame, "    at up (script.js:5:1)", frame].join("\n");
    expect(collapseRepeatedFrames(frames)).toBe(frames);
  });

  it("says 'time' for a single extra copy", () => {
    expect(collapseRepeatedFrames([frame, frame, frame, frame].join("\n")).split("\n").at(-1)).toBe("    … the frame above 1 more time");
  });
});
