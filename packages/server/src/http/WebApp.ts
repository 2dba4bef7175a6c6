import { existsSync } from "node:fs"
import { readdir, readFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { type HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"

/**
 * The web app (packages/web) at `/app`: the static files Vite builds into `packages/server/app`,
 * which the server package ships. Files are read once into memory (a few hundred kB) and only
 * those are ever served, so no request path reaches the file system: there is nothing to
 * traverse. Hashed assets are cached for a year as immutable; index.html is revalidated and
 * answers every client route. Every answer carries a strict Content-Security-Policy: scripts,
 * styles and calls from this origin only, no inline script, no framing
 * (docs/decisions/1900-web-app-stack-and-serving.md).
 */

export const mount = "/app"

export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'"
].join("; ")

const mediaTypes: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json"
}

const securityHeaders = {
  "Content-Security-Policy": contentSecurityPolicy,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin"
}

interface StaticFile {
  readonly bytes: Uint8Array
  readonly contentType: string
  /** Vite names assets by their content's hash: they never change under the same name. */
  readonly immutable: boolean
}

/** Where the built app is: LEDGER_WEB_APP_DIR, else `app/` beside `src/` (sources) or `dist/` (built). */
export const appDirectory = (environment: Readonly<Record<string, string | undefined>> = process.env): string | null => {
  if (environment.LEDGER_WEB_APP_DIR !== undefined && environment.LEDGER_WEB_APP_DIR !== "") return environment.LEDGER_WEB_APP_DIR
  for (const relative of ["../../app", "../app"]) {
    const candidate = fileURLToPath(new URL(relative, import.meta.url))
    if (existsSync(path.join(candidate, "index.html"))) return candidate
  }
  return null
}

/** Every file under the folder, keyed by its URL path below the mount ("/index.html", "/assets/…"). */
export const loadFiles = async (directory: string): Promise<ReadonlyMap<string, StaticFile>> => {
  const files = new Map<string, StaticFile>()
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const absolute = path.join(entry.parentPath, entry.name)
    const key = `/${path.relative(directory, absolute).split(path.sep).join("/")}`
    files.set(key, {
      bytes: await readFile(absolute),
      contentType: mediaTypes[path.extname(entry.name).toLowerCase()] ?? "application/octet-stream",
      immutable: key.startsWith("/assets/")
    })
  }
  return files
}

const notBuilt = HttpServerResponse.text(
  "The web app is not built. Run: pnpm --filter @ledger/web build\n",
  { status: 503, contentType: "text/plain; charset=utf-8", headers: securityHeaders }
)

const notFound = HttpServerResponse.text("Not found.\n", { status: 404, contentType: "text/plain; charset=utf-8", headers: securityHeaders })

const send = (file: StaticFile) =>
  HttpServerResponse.uint8Array(file.bytes, {
    contentType: file.contentType,
    headers: { ...securityHeaders, "Cache-Control": file.immutable ? "public, max-age=31536000, immutable" : "no-cache" }
  })

/**
 * The answer for a path below the mount: the file, else index.html for a client route (a path
 * without a file extension); a missing asset is a 404, never the page.
 */
export const answer = (files: ReadonlyMap<string, StaticFile> | null, below: string): HttpServerResponse.HttpServerResponse => {
  if (files === null) return notBuilt
  let decoded: string
  try {
    decoded = decodeURIComponent(below)
  } catch {
    return notFound
  }
  if (decoded.includes("\0") || decoded.includes("\\") || decoded.split("/").some((segment) => segment === "..")) return notFound
  const file = files.get(decoded === "/" || decoded === "" ? "/index.html" : decoded)
  if (file !== undefined) return send(file)
  if (decoded.startsWith("/assets/") || /\.[a-z0-9]+$/i.test(decoded)) return notFound
  const index = files.get("/index.html")
  return index === undefined ? notBuilt : send(index)
}

const intoApp = (route: string) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const search = new URL(request.url, "http://localhost").search
    return HttpServerResponse.redirect(`${mount}${route}${search}`, { status: 302, headers: { "Cache-Control": "no-store" } })
  })

/**
 * The W-9 link the 1099 area mails vendors is `<app origin>/w9/<token>` (engine taxforms/W9.ts,
 * already documented and tested as such): it lands on the app's public W-9 page. Only a path of
 * the token's shape is forwarded, and the redirect is never cached nor sent as a referrer.
 */
const w9Token = /^\/w9\/w9_[A-Za-z0-9_-]{20,80}$/u

const intoW9 = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const pathname = new URL(request.url, "http://localhost").pathname
  if (!w9Token.test(pathname)) return notFound
  return HttpServerResponse.redirect(`${mount}${pathname}`, { status: 302, headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } })
})

/** Adds `/` (to the app), `/app`, `/app/*`, the sign-in mail's link (`/sign-in/email?code=…`), the consent landing (`/connect`) and the W-9 link (`/w9/<token>`) to the router (Http.ts `routes`). */
export const register = (router: HttpRouter.HttpRouter) =>
  Effect.gen(function*() {
    let files: ReadonlyMap<string, StaticFile> | null = null
    // Read on the first request, and again while the app is not built yet (a build after start).
    const current = Effect.promise(async () => {
      if (files !== null) return files
      const directory = appDirectory()
      files = directory === null ? null : await loadFiles(directory).catch(() => null)
      return files
    })
    const serve = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const pathname = new URL(request.url, "http://localhost").pathname
      // The wildcard route also takes the bare mount: send it to the app's root.
      if (pathname === mount) return HttpServerResponse.redirect(`${mount}/`, { status: 301 })
      return answer(yield* current, pathname.slice(mount.length))
    })
    yield* router.add("GET", `${mount}/*`, serve)
    // With LEDGER_APP_URL unset, the sign-in mail links to the server's own /sign-in/email and
    // /oauth/authorize sends the browser to its own /connect: both land in the app.
    for (const route of ["/sign-in/email", "/connect"] as const) yield* router.add("GET", route, intoApp(route))
    yield* router.add("GET", "/w9/*", intoW9)
    // A person who opens the server's address (the first sign-in mail's host, a bookmark) lands in
    // the app rather than on a JSON 404 (issue 38 item 14). API clients never call `/`.
    yield* router.add("GET", "/", HttpServerResponse.redirect(`${mount}/`, { status: 302, headers: { "Cache-Control": "no-store" } }))
  })
