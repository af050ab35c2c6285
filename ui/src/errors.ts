import { describeError } from "./api.js";

/**
 * Page-level errors (uncaught exceptions, rejected promises, a page that failed to render): shown
 * in a fixed alert region outside the app, so they are visible even when the app itself is broken.
 */
export function reportError(error: unknown): void {
  let region = document.getElementById("page-errors");
  if (region === null) {
    region = document.createElement("div");
    region.id = "page-errors";
    region.setAttribute("role", "alert");
    document.body.prepend(region);
  }
  const item = document.createElement("p");
  item.className = "page-error";
  item.textContent = `Something went wrong in the dashboard: ${describeError(error)}. Reload the page; the CLI (mcpvm mcp …) works meanwhile.`;
  region.append(item);
}
