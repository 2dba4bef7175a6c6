import { deflateSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { extractText } from "unpdf"
import { agentWithKey, createKey, expectErrorBody, getFile, isPdf, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

/** The company profile over HTTP: fields and their rules, the logo (PNG checked, SVG rebuilt), and the preview PDF. */

let app: TestApp
let company: TestCompany

const update = (body: Record<string, unknown>, token = company.ownerKey) => app.call("POST", "/v1/company/profile", { token, body })
const uploadLogo = (bytes: Uint8Array | string, extra: Record<string, unknown> = {}) =>
  app.call("POST", "/v1/company/profile/logo", { token: company.ownerKey, key: newKey(), body: { content_base64: Buffer.from(bytes).toString("base64"), ...extra } })

const crc = (bytes: Buffer) => {
  let c = 0xffffffff
  for (const byte of bytes) {
    c ^= byte
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  }
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type: string, data: Buffer) => {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, "latin1")
  data.copy(out, 8)
  out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}
export const png = (width: number, height: number, interlace = 0) => {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8
  header[9] = 2
  header[12] = interlace
  return new Uint8Array(Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc((width * 3 + 1) * height, 0x40))),
    chunk("IEND", Buffer.alloc(0))
  ]))
}

beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "Profile Co" })
})
afterAll(() => app.close())

describe("profile fields", () => {
  it("changes only sent fields, clears with null or empty, adds https to the website, keeps the EIN's digits", async () => {
    const first = await update({ legal_name: "Acme Books LLC", website: "acme.example", ein: "12-3456789", brand_color: "#1A5FB4", country: "ca" })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body).toMatchObject({ legal_name: "Acme Books LLC", website: "https://acme.example", ein: "12-3456789", brand_color: "#1a5fb4", country: "CA" })
    const second = await update({ dba: "Acme", legal_name: "" })
    expect(second.body).toMatchObject({ dba: "Acme", legal_name: null, website: "https://acme.example" })
    const read = await app.call("GET", "/v1/company/profile", { token: company.ownerKey })
    expect(read.body.dba).toBe("Acme")
  })

  it("shows the EIN in full only to administrators", async () => {
    const reader = await createKey(app, company.ownerKey, { principal_type: "user", user_id: company.ownerId, scopes: ["read"] })
    const read = await app.call("GET", "/v1/company/profile", { token: reader.secret })
    expect(read.body.ein).toBe("XX-XXX6789")
  })

  it("refuses a brand colour under 3:1 on white, long texts, bad addresses, and agents", async () => {
    const pale = await update({ brand_color: "#ffff00" })
    expect(pale.status).toBe(422)
    expect(pale.body.error.message).toMatch(/Contrast on white is 1\.07:1/)
    expect((await update({ payment_instructions: Array.from({ length: 13 }, (_, i) => `line ${i}`).join("\n") })).status).toBe(422)
    expect((await update({ payment_instructions: Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n") })).status).toBe(200)
    expect((await update({ website: "javascript:alert(1)" })).status).toBe(422)
    expect((await update({ ein: "12345" })).status).toBe(422)
    const agent = await agentWithKey(app, company.ownerKey, ["read", "propose", "approve", "admin"])
    const byAgent = await app.call("POST", "/v1/company/profile", { token: agent.key.secret, headers: { "x-agent-model": "test-model/1.0" }, body: { dba: "x" } })
    expect(byAgent.status).toBe(403)
  })

  it("previews without writing", async () => {
    const preview = await update({ dba: "Preview Only", dry_run: true })
    expect(preview.body.dba).toBe("Preview Only")
    expect((await app.call("GET", "/v1/company/profile", { token: company.ownerKey })).body.dba).toBe("Acme")
  })
})

describe("the logo", () => {
  it("takes a PNG, serves it back, previews with it, and removes it", async () => {
    const bytes = png(40, 20)
    const dry = await uploadLogo(bytes, { dry_run: true })
    expect(dry.status).toBe(200)
    const uploaded = await uploadLogo(bytes, { file_name: "logo.png" })
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201)
    expect(uploaded.body.logo).toMatchObject({ media_type: "image/png", width: 40, height: 20 })
    const served = await app.call("GET", "/v1/company/profile/logo?format=base64", { token: company.ownerKey })
    expect(Buffer.from(served.body.content_base64, "base64").equals(Buffer.from(bytes))).toBe(true)
    const raw = await getFile(app.fetch, "/v1/company/profile/logo", company.ownerKey)
    expect(raw.contentType).toBe("image/png")
    expect(Buffer.from(raw.bytes).equals(Buffer.from(bytes))).toBe(true)
    const preview = await getFile(app.fetch, "/v1/company/profile/preview?kind=estimate", company.ownerKey)
    expect(preview.contentType).toBe("application/pdf")
    expect(preview.filename).toBe("estimate-preview.pdf")
    expect(isPdf(preview.bytes)).toBe(true)
    const envelope = await app.call("GET", "/v1/company/profile/preview?kind=estimate&format=base64", { token: company.ownerKey })
    expect(envelope.body).toMatchObject({ kind: "estimate", content_type: "application/pdf" })
    const { text } = await extractText(preview.bytes, { mergePages: true })
    expect(text).toContain("ESTIMATE")
    expect(text).toContain("Acme")
    const removed = await app.call("POST", "/v1/company/profile/logo/remove", { token: company.ownerKey, body: {} })
    expect(removed.body.logo).toBeNull()
    expect((await app.call("GET", "/v1/company/profile/logo", { token: company.ownerKey })).status).toBe(404)
  })

  it("refuses a hostile PNG: wrong magic, too large, too many pixels, interlaced", async () => {
    const wrongMagic = png(4, 4)
    wrongMagic[1] = 0x51
    expectErrorBody((await uploadLogo(wrongMagic)).body, "unsupported_media_type")
    expectErrorBody((await uploadLogo(png(5000, 10))).body, "logo_refused")
    expectErrorBody((await uploadLogo(png(4, 4, 1))).body, "logo_refused")
    const huge = new Uint8Array(1024 * 1024 + 10)
    huge.set(png(4, 4))
    expect((await uploadLogo(huge)).status).toBe(413)
  })

  it("refuses SVGs that could run or fetch, and rebuilds a clean one from the allow-list", async () => {
    const hostile = [
      `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="https://evil.example/x.svg#a"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><style>rect { fill: url(https://evil.example/track) }</style></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><rect style="background:url('//evil.example/a')"/></svg>`,
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="1" height="1"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(x.css);</style></svg>`
    ]
    for (const svg of hostile) {
      const result = await uploadLogo(svg)
      expect(result.status, svg).toBe(422)
      expectErrorBody(result.body, "logo_refused")
    }
    const clean = await uploadLogo(`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" data-x="1"><metadata>m</metadata><rect width="120" height="40" fill="#1a5fb4"/></svg>`)
    expect(clean.status, JSON.stringify(clean.body)).toBe(201)
    expect(clean.body.cleaned).toEqual(expect.arrayContaining(["attribute data-x", "element metadata"]))
    // Served as itself, never run: an attachment that is not sniffed, under a sandboxing policy.
    const served = await getFile(app.fetch, "/v1/company/profile/logo", company.ownerKey)
    expect(served.contentType).toBe("image/svg+xml")
    expect(served.headers.get("x-content-type-options")).toBe("nosniff")
    expect(served.headers.get("content-security-policy")).toContain("sandbox")
    expect(served.headers.get("content-disposition")).toMatch(/^attachment;/)
    const text = served.text
    expect(text).toBe(`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#1a5fb4"></rect></svg>`)
  })
})

describe("companies apart", () => {
  it("shows a company only its own profile and logo", async () => {
    const other = await app.createCompany({ name: "Other Profile Co" })
    const theirs = await app.call("GET", "/v1/company/profile", { token: other.ownerKey })
    expect(theirs.body).toMatchObject({ legal_name: null, dba: null, ein: null, logo: null, country: "US" })
    expect((await app.call("GET", "/v1/company/profile/logo", { token: other.ownerKey })).status).toBe(404)
  })
})
