import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as WebApp from "../src/http/WebApp.ts"

/**
 * How `ledger serve` answers a request for the web app's files (http/WebApp.ts), over a folder of
 * stand-in files: media types, caching, the client-route fallback, the Content-Security-Policy,
 * and no way out of the app's folder. test/web/serving.test.ts checks the real build under /app.
 */

let folder: string
let files: Awaited<ReturnType<typeof WebApp.loadFiles>>

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "ledger-web-"))
  await mkdir(path.join(folder, "assets"))
  await writeFile(path.join(folder, "index.html"), "<!doctype html><title>Ledger</title>")
  await writeFile(path.join(folder, "assets", "index-AbC123.js"), "console.log(1)")
  await writeFile(path.join(folder, "assets", "index-AbC123.css"), "body{}")
  await writeFile(path.join(folder, "icon.svg"), "<svg/>")
  await writeFile(path.join(path.dirname(folder), "secret.txt"), "outside")
  files = await WebApp.loadFiles(folder)
})

afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

describe("the static answer", () => {
  it("serves each file with its media type; hashed assets are immutable, the page is revalidated", async () => {
    const script = WebApp.answer(files, "/assets/index-AbC123.js")
    expect(script.status).toBe(200)
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8")
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
    expect(WebApp.answer(files, "/assets/index-AbC123.css").headers["content-type"]).toBe("text/css; charset=utf-8")
    expect(WebApp.answer(files, "/icon.svg").headers["content-type"]).toBe("image/svg+xml")
    const page = WebApp.answer(files, "/")
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8")
    expect(page.headers["cache-control"]).toBe("no-cache")
    expect(page.headers["content-security-policy"]).toBe(WebApp.contentSecurityPolicy)
    expect(page.headers["x-content-type-options"]).toBe("nosniff")
  })

  it("answers index.html for client routes, and 404 for a missing file", () => {
    for (const route of ["/inbox", "/sign-in/email", "/console/", "/connect"]) {
      const answer = WebApp.answer(files, route)
      expect(answer.status, route).toBe(200)
      expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8")
    }
    expect(WebApp.answer(files, "/assets/gone-123.js").status).toBe(404)
    expect(WebApp.answer(files, "/favicon.ico").status).toBe(404)
  })

  it("never leaves the folder: dot segments, encoded ones, backslashes and NUL are 404", () => {
    for (const attempt of ["/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/assets/..%5c..%5csecret.txt", "/index.html%00", "/%E0%A4%A"]) {
      expect(WebApp.answer(files, attempt).status, attempt).toBe(404)
    }
  })

  it("says how to build when there is no app", () => {
    const answer = WebApp.answer(null, "/")
    expect(answer.status).toBe(503)
  })
})
