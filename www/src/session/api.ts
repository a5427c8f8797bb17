// Requests the engine does not make itself (channel browser, profile, uploads, typing, edit
// history...), authenticated with the session's API key. Errors come back in the server's shape.
import type { SessionCredentials } from "confab-web";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export type Params = Record<string, string | number | boolean | unknown[] | Record<string, unknown> | undefined>;

export function authorization(credentials: SessionCredentials): string {
  const bytes = new TextEncoder().encode(`${credentials.email}:${credentials.apiKey}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** Zulip's parameter encoding: strings as they are, everything else as JSON. */
function encode(params: Params): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    body.set(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  return body;
}

export async function api<T = Record<string, unknown>>(
  credentials: SessionCredentials,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  params: Params = {},
): Promise<T> {
  const encoded = encode(params);
  let url = `${credentials.site}/api/v1${path}`;
  const init: RequestInit = { method, headers: { Authorization: authorization(credentials) } };
  if (method === "GET") {
    const query = encoded.toString();
    if (query) url += `?${query}`;
  } else {
    init.body = encoded;
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new ApiError("Cannot reach the server.", "NETWORK", 0);
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || body.result !== "success") {
    throw new ApiError(String(body.msg ?? response.statusText), String(body.code ?? "BAD_REQUEST"), response.status);
  }
  return body as T;
}

/** Uploads a file (`POST /user_uploads`), reporting progress from 0 to 1; resolves to its URL. */
export function upload(
  credentials: SessionCredentials,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<{ url: string; filename: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `${credentials.site}/api/v1/user_uploads`);
    request.setRequestHeader("Authorization", authorization(credentials));
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const body = (() => {
        try {
          return JSON.parse(request.responseText) as Record<string, unknown>;
        } catch {
          return {};
        }
      })();
      if (request.status === 200 && body.result === "success") {
        onProgress(1);
        resolve({ url: String(body.url ?? body.uri), filename: String(body.filename ?? file.name) });
      } else {
        reject(new ApiError(String(body.msg ?? request.statusText), String(body.code ?? "BAD_REQUEST"), request.status));
      }
    };
    request.onerror = () => reject(new ApiError("Cannot reach the server.", "NETWORK", 0));
    const form = new FormData();
    form.append("file", file, file.name);
    request.send(form);
  });
}

/** What to tell the user about a failure: the server's message, an Error's, or the value. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === "object" && "msg" in error) return String((error as { msg: unknown }).msg);
  return String(error);
}
