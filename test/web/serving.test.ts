import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as WebApp from "../../packages/server/src/http/WebApp.ts"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { ensureBuilt } from "../support/browser/chromium.ts"

/**
 * How `ledger serve` serves the web app under /app: media types, caching, the client-route
 * fallback, the Content-Security-Policy, and no way out of the app's folder.
 */

let folder: string
let files: Awaited<ReturnType<typeof WebApp.loadFiles>>
let app: TestApp

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "ledger-web-"))
  await mkdir(path.join(folder, "assets"))
  await writeFile(path.join(folder, "index.html"), "<!doctype html><title>Ledger</title>")
  await writeFile(path.join(folder, "assets", "index-AbC123.js"), "console.log(1)")
  await writeFile(path.join(folder, "assets", "index-AbC123.css"), "body{}")
  await writeFile(path.join(folder, "icon.svg"), "<svg/>")
  await writeFile(path.join(path.dirname(folder), "secret.txt"), "outside")
  files = await WebApp.loadFiles(folder)
  const buildMs = await ensureBuilt()
  if (buildMs > 0) console.info(`built the web app in ${buildMs} ms`)
  app = await makeTestApp()
}, 120_000)

afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
  await app?.close()
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

describe("the app under /app of the server", () => {
  it("serves the built page with a strict CSP and no inline script, and its assets", async () => {
    const response = await app.fetch(new Request("http://ledger.test/app/"))
    expect(response.status).toBe(200)
    const csp = response.headers.get("content-security-policy")!
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain("unsafe-inline")
    const html = await response.text()
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)![1]!
    const asset = await app.fetch(new Request(`http://ledger.test${script}`))
    expect(asset.status).toBe(200)
    expect(asset.headers.get("cache-control")).toContain("immutable")
    expect(asset.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    // The production build, and nothing fetched from another origin.
    const code = await asset.text()
    expect(code.includes("is deprecated in plain JavaScript React classes"), "a development build").toBe(false)
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
  })

  it("answers client routes with the page and redirects /app and the mail's link into the app", async () => {
    const route = await app.fetch(new Request("http://ledger.test/app/console"))
    expect(route.status).toBe(200)
    expect(await route.text()).toContain("<div id=\"root\">")
    const bare = await app.fetch(new Request("http://ledger.test/app", { redirect: "manual" }))
    expect(bare.status).toBe(301)
    expect(bare.headers.get("location")).toBe("/app/")
    const link = await app.fetch(new Request("http://ledger.test/sign-in/email?code=123456", { redirect: "manual" }))
    expect(link.status).toBe(302)
    expect(link.headers.get("location")).toBe("/app/sign-in/email?code=123456")
    const traversal = await app.fetch(new Request("http://ledger.test/app/..%2f..%2fpackage.json"))
    expect(traversal.status).toBe(404)
  })

  it("leaves the API alone: an unknown /v1 route is still the JSON 404", async () => {
    const response = await app.fetch(new Request("http://ledger.test/v1/no-such-route"))
    expect(response.status).toBe(404)
    expect((await response.json()).error.type).toBe("not_found")
  })
})
