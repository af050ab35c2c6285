import { useEffect, useRef, useState } from "preact/hooks";
import { get } from "./api.js";
import { usePoll } from "./hooks.js";
import type { StateAnswer } from "./types.js";
import { ServersPage } from "./pages/servers.js";
import { ApprovalsPage } from "./pages/approvals.js";
import { ToolsetsPage } from "./pages/toolsets.js";
import { ActivityPage } from "./pages/activity.js";
import { RunPage } from "./pages/run.js";

const PAGES = [
  { id: "servers", title: "Servers" },
  { id: "approvals", title: "Approvals" },
  { id: "toolsets", title: "Toolsets" },
  { id: "activity", title: "Activity" },
  { id: "run", title: "Run" },
] as const;
type PageId = (typeof PAGES)[number]["id"];

function pageFromHash(): PageId {
  const id = location.hash.replace(/^#\/?/, "");
  return (PAGES.find((p) => p.id === id)?.id ?? "servers") as PageId;
}

/** How often the page asks for the servers' state: a change made with `mcpvm mcp …` shows within a second. */
export const STATE_POLL_MS = 600;

export function App() {
  const [page, setPage] = useState<PageId>(pageFromHash());
  useEffect(() => {
    const onHash = () => setPage(pageFromHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const firstPage = useRef(true);
  useEffect(() => {
    const title = PAGES.find((p) => p.id === page)?.title ?? "";
    document.title = `${title} · mcpvm`;
    // After a page change (not at load), focus moves to the new content for keyboard and screen-reader users.
    if (!firstPage.current) document.getElementById("main")?.focus();
    firstPage.current = false;
  }, [page]);
  const state = usePoll(() => get<StateAnswer>("/api/state"), STATE_POLL_MS);
  const waiting = (state.data?.servers ?? []).filter((s) => s.approval !== "approved" || s.state === "held" || (s.heldCount ?? 0) > 0).length;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <h1>mcpvm</h1>
        <nav aria-label="Pages">
          <ul>
            {PAGES.map((p) => (
              <li key={p.id}>
                <a href={`#/${p.id}`} aria-current={page === p.id ? "page" : undefined}>
                  {p.title}
                  {p.id === "approvals" && waiting > 0 && (
                    <span class="badge" aria-label={`${waiting} waiting`}>
                      {waiting}
                    </span>
                  )}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {state.error !== undefined && (
        <p class="error banner" role="alert">
          {state.error}
        </p>
      )}
      <main id="main" tabIndex={-1}>
        {page === "servers" && <ServersPage state={state.data} reloadState={state.reload} />}
        {page === "approvals" && <ApprovalsPage state={state.data} reloadState={state.reload} />}
        {page === "toolsets" && <ToolsetsPage />}
        {page === "activity" && <ActivityPage />}
        {page === "run" && <RunPage />}
      </main>
    </>
  );
}
