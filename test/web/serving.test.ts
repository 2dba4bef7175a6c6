import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import path from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { ensureBuilt } from "../support/browser/chromium.ts"
import { repositoryRoot } from "../support/server-process.ts"

/**
 * How `ledger serve` serves the built web app under /app: the page with its CSP and no inline
 * script, its assets, the client-route fallback, redirects, and the API left alone. The static
 * answer itself (media types, caching, traversal) is packages/server/test/web-app.test.ts.
 */

let app: TestApp

beforeAll(async () => {
  const buildMs = await ensureBuilt()
  if (buildMs > 0) console.info(`built the web app in ${buildMs} ms`)
  app = await makeTestApp()
}, 120_000)

afterAll(async () => {
  await app?.close()
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

  it("leads a person who opens the server's own address into the app (issue 38 item 14)", async () => {
    const root = await app.fetch(new Request("http://ledger.test/", { redirect: "manual" }))
    expect(root.status).toBe(302)
    expect(root.headers.get("location")).toBe("/app/")
  })
})

describe("the README's `pnpm start` on a fresh clone (issue 38 item 14)", () => {
  it("builds the web app first when its build is missing or stale, then serves", async () => {
    const manifest = JSON.parse(readFileSync(path.join(repositoryRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }
    const [build, serve] = manifest.scripts.start!.split(" && ")
    expect(build).toBe("node packages/web/scripts/build-if-stale.mjs")
    expect(serve).toBe("node packages/server/bin/ledger.mjs serve")
    // The script as `pnpm start` runs it: afterwards the build is there and newer than the sources.
    await promisify(execFile)(process.execPath, [path.join(repositoryRoot, "packages/web/scripts/build-if-stale.mjs")], { cwd: repositoryRoot })
    const script = await import("../../packages/web/scripts/build-if-stale.mjs")
    expect(script.isFresh()).toBe(true)
  })
})
