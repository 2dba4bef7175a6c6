import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FakeObjectStore } from "@ledger/testkit"
import { Config } from "@ledger/server"
import { InboundMail, S3BlobStore } from "@ledger/server/adapters"
import { expectErrorBody } from "../support/index.ts"
import { mime, trustedAuthservId } from "./mail.ts"
import { type Company, makeReceiptsApp, png, type ReceiptsApp } from "./support.ts"

/**
 * Receipt files in an S3-compatible bucket: the adapter (aws4fetch, Signature Version 4, path and
 * virtual-host addressing) against the testkit's fake store, which checks every signature, and
 * the receipts flow over HTTP with that store: only ciphertext reaches the bucket.
 */

const pdf = new Uint8Array(readFileSync(new URL("../fixtures/pdf/invoice2data_QualityHosting.pdf", import.meta.url)))

let store: FakeObjectStore.FakeObjectStore
beforeAll(async () => {
  store = FakeObjectStore.make()
  await store.start()
})
afterAll(() => store.close())

describe("the signature check of the fake store", () => {
  // AWS's published example (S3 API reference, "Signature Calculations for the Authorization
  // Header: Transferring Payload in a Single Chunk", GET Object): the verifier must accept it as
  // AWS does, so that the fake checks Signature Version 4 itself, not merely aws4fetch against aws4fetch.
  const example = {
    method: "GET",
    target: "/test.txt",
    headers: {
      host: "examplebucket.s3.amazonaws.com",
      range: "bytes=0-9",
      "x-amz-content-sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "x-amz-date": "20130524T000000Z",
      authorization: "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
    },
    body: new Uint8Array()
  }
  const secretOf = (id: string) => id === "AKIAIOSFODNN7EXAMPLE" ? "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" : null

  it("accepts AWS's own example request", async () => {
    expect(await S3BlobStore.verify(example, secretOf)).toMatchObject({ ok: true, accessKeyId: "AKIAIOSFODNN7EXAMPLE", region: "us-east-1" })
  })

  it("refuses it changed in any signed part, with another key, or with a body that is not the declared one", async () => {
    const changed = async (patch: Partial<typeof example>, headers: Record<string, string> = {}) =>
      S3BlobStore.verify({ ...example, ...patch, headers: { ...example.headers, ...headers } }, secretOf)
    expect(await changed({ target: "/test2.txt" })).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    expect(await changed({ method: "DELETE" })).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    expect(await changed({}, { range: "bytes=0-99" })).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    expect(await changed({}, { host: "otherbucket.s3.amazonaws.com" })).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    expect(await changed({ body: new TextEncoder().encode("smuggled") })).toMatchObject({ ok: false, code: "XAmzContentSHA256Mismatch" })
    expect(await S3BlobStore.verify(example, () => null)).toMatchObject({ ok: false, code: "InvalidAccessKeyId" })
    expect(await S3BlobStore.verify(example, () => "not-the-secret")).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    expect(await changed({}, { authorization: "" })).toMatchObject({ ok: false, code: "AccessDenied" })
  })
})

describe("the S3 adapter against the fake store", () => {
  for (const addressing of ["path", "virtual"] as const) {
    it(`puts, heads, gets and deletes objects, ${addressing}-style, signed`, async () => {
      const s3 = S3BlobStore.client(store.settings({ addressing, prefix: "ledger/" }))
      const name = `company-1/receipt/${addressing} file+name ü.pdf`
      const bytes = new Uint8Array(Buffer.from(`object for ${addressing} addressing`))
      await s3.put(name, bytes)
      expect(store.objects.get(`ledger/${name}`)).toEqual(bytes)
      expect(await s3.head(name)).toBe(bytes.byteLength)
      expect(await s3.get(name)).toEqual(bytes)
      await s3.remove(name)
      expect(await s3.get(name)).toBeNull()
      expect(await s3.head(name)).toBeNull()
      const mine = store.requests.filter((request) => request.key === `ledger/${name}`)
      expect(mine.map((request) => [request.method, request.style, request.status])).toEqual([
        ["PUT", addressing, 200], ["HEAD", addressing, 200], ["GET", addressing, 200], ["DELETE", addressing, 204], ["GET", addressing, 404], ["HEAD", addressing, 404]
      ])
    })
  }

  it("is refused by the store with a wrong secret, and says so", async () => {
    const s3 = S3BlobStore.client(store.settings({ secretAccessKey: "wrong-secret-wrong-secret-wrong-secret-00" }))
    await expect(s3.put("company-1/x", new Uint8Array([1, 2, 3]))).rejects.toThrow(/SignatureDoesNotMatch/)
    expect(store.objects.has("company-1/x")).toBe(false)
  })

  it("bounds the size of what it stores, and the store bounds what it takes", async () => {
    const s3 = S3BlobStore.client(store.settings())
    await expect(s3.put("company-1/huge", new Uint8Array(S3BlobStore.objectBytesMax + 1))).rejects.toThrow(/bound/)
    const small = FakeObjectStore.make({ objectBytesMax: 1000 })
    await small.start()
    await expect(S3BlobStore.client(small.settings()).put("company-1/big", new Uint8Array(1001))).rejects.toThrow(/EntityTooLarge/)
    await small.close()
  })

  it("reads settings from the environment, and refuses half of them", () => {
    const base = {
      LEDGER_BLOB_STORE: "s3", LEDGER_S3_ENDPOINT: "https://s3.eu-central-1.amazonaws.com", LEDGER_S3_BUCKET: "acme-receipts",
      LEDGER_S3_REGION: "eu-central-1", LEDGER_S3_ACCESS_KEY_ID: "AKIA1", LEDGER_S3_SECRET_ACCESS_KEY: "secret"
    }
    const aws = S3BlobStore.fromEnvironment(base)!
    expect(aws).toMatchObject({ addressing: "virtual", region: "eu-central-1", prefix: "" })
    expect(S3BlobStore.objectUrl(aws, "c/receipt/ab")).toBe("https://acme-receipts.s3.eu-central-1.amazonaws.com/c/receipt/ab")
    const minio = S3BlobStore.fromEnvironment({ ...base, LEDGER_S3_ENDPOINT: "http://minio:9000" })!
    expect(S3BlobStore.objectUrl(minio, "c/receipt/ab")).toBe("http://minio:9000/acme-receipts/c/receipt/ab")
    expect(S3BlobStore.fromEnvironment({})).toBeNull()
    expect(S3BlobStore.fromEnvironment({ LEDGER_BLOB_STORE: "database" })).toBeNull()
    expect(() => S3BlobStore.fromEnvironment({ ...base, LEDGER_S3_BUCKET: "" })).toThrow(/LEDGER_S3_BUCKET/)
    expect(() => S3BlobStore.fromEnvironment({ ...base, LEDGER_S3_ENDPOINT: "ftp://x" })).toThrow(/LEDGER_S3_ENDPOINT/)
    expect(() => S3BlobStore.fromEnvironment({ ...base, LEDGER_BLOB_STORE: "disk" })).toThrow(/LEDGER_BLOB_STORE/)
    // The server refuses to start on half of them, as on a malformed master key.
    expect(() => Config.fromEnvironment({ LEDGER_BLOB_STORE: "s3" }, 4 * 1024 ** 3)).toThrow(/LEDGER_S3_ENDPOINT/)
  })
})

describe("receipts with their files in the bucket", () => {
  let app: ReceiptsApp
  let company: Company
  beforeAll(async () => {
    app = await makeReceiptsApp({ objectStore: store.settings({ prefix: "receipts/" }) })
    company = await app.createCompany()
  })
  afterAll(() => app.close())

  it("uploads into the bucket sealed: the object is ciphertext, the table is empty, the file comes back whole", async () => {
    const uploaded = await app.upload(company, pdf, "hosting.pdf")
    expect(uploaded.status).toBe(201)
    expect(uploaded.body).toMatchObject({ created: true, has_text: true })
    const object = store.objects.get(`receipts/${company.companyId}/receipt/${uploaded.body.sha256}`)!
    expect(object).toBeDefined()
    const sealed = Buffer.from(object)
    // The 12-byte IV, then the file's length of ciphertext, then the 16-byte tag.
    expect(sealed.byteLength).toBe(12 + pdf.byteLength + 16)
    expect(sealed.includes(Buffer.from("%PDF"))).toBe(false)
    expect(sealed.includes(Buffer.from(pdf.subarray(300, 332)))).toBe(false)
    expect(await app.query("SELECT blob_key FROM receipt_blobs WHERE company_id = $1", [company.companyId])).toEqual([])
    const file = await app.call("GET", `/v1/receipts/${uploaded.body.id}/file?format=base64`, { token: company.ownerKey })
    expect(Buffer.from(file.body.content_base64, "base64").equals(Buffer.from(pdf))).toBe(true)
  })

  it("keeps a held message's files in the bucket until release, then removes them", async () => {
    const address = (await app.call("GET", "/v1/receipts/inbox", { token: company.ownerKey })).body.address as string
    const message = mime({ from: "new@sender.example", to: address, attachments: [{ name: "r.png", bytes: png(3, 3, 201) }] })
    const [held] = await InboundMail.receive(app.runtime, message, { mailFrom: "new@sender.example", recipients: [address] }, { trustedAuthservId })
    expect(held).toMatchObject({ outcome: "accepted", status: "review" })
    const id = held!.outcome === "accepted" ? held!.messageRecordId : 0
    expect(store.objects.has(`receipts/${company.companyId}/inbox/${id}/0`)).toBe(true)
    const released = await app.write(`/v1/receipts/inbox/messages/${id}/release`, company.ownerKey, {})
    expect(released.body).toMatchObject({ status: "released", attachments: [{ receipt_id: expect.any(Number) }] })
    expect(store.objects.has(`receipts/${company.companyId}/inbox/${id}/0`)).toBe(false)
  })

  it("answers 503 receipt_storage_unavailable while the store is down, and stores nothing", async () => {
    const before = await app.query<{ n: number }>("SELECT count(*)::int AS n FROM receipts WHERE company_id = $1", [company.companyId])
    // The adapter retries twice: three failures in a row are an outage.
    store.failNext(3)
    const refused = await app.upload(company, png(4, 4, 202), "down.png")
    expect(refused.status).toBe(503)
    expectErrorBody(refused.body, "receipt_storage_unavailable")
    expect(await app.query("SELECT count(*)::int AS n FROM receipts WHERE company_id = $1", [company.companyId])).toEqual(before)
    const later = await app.upload(company, png(4, 4, 202), "down.png")
    expect(later.status).toBe(201)
  })
})
