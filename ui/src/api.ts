/** The dashboard's API client: every call carries the token from the page URL in a header. */
const TOKEN = new URLSearchParams(location.search).get("token") ?? "";
export const TOKEN_HEADER = "x-mcpvm-token";

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function request<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { [TOKEN_HEADER]: TOKEN, ...(method === "POST" ? { "content-type": "application/json" } : {}) },
      ...(method === "POST" ? { body: JSON.stringify(body ?? {}) } : {}),
      cache: "no-store",
    });
  } catch {
    throw new ApiError("UI_OFFLINE", "The dashboard server is not answering. Is `mcpvm ui` still running?", 0);
  }
  const payload = (await response.json().catch(() => ({}))) as { error?: { code: string; message: string } };
  if (!response.ok) throw new ApiError(payload.error?.code ?? "HTTP_" + response.status, payload.error?.message ?? response.statusText, response.status);
  return payload as T;
}

export const get = <T>(path: string): Promise<T> => request<T>("GET", path);
export const post = <T>(path: string, body?: unknown): Promise<T> => request<T>("POST", path, body);
export const enc = encodeURIComponent;

export function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}
