import { request as httpRequest } from "node:http"
import { AwsV4Signer } from "aws4fetch"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { S3BlobStore } from "@ledger/server/adapters"
import { FakeObjectStore } from "@ledger/testkit"
import { apiVersion, type Exchange, requestProblems, responseProblems } from "../support/providers/s3.ts"

/**
 * The object store's contract (issue 39): every request the real adapter (S3BlobStore) sends, in
 * both addressing styles, and every answer the testkit's fake store gives, checked against AWS's
 * Smithy model of Amazon S3 (test/fixtures/providers/s3, API 2006-03-01). The fake refuses what S3
 * refuses, in S3's error shape; a wrong request is reported by the check.
 */
let store: FakeObjectStore.FakeObjectStore
let endpoint: string
beforeAll(async () => {
  store = FakeObjectStore.make()
  endpoint = await store.start()
})
afterAll(() => store.close())

const since = (count: number) => store.exchanges.slice(count)
const hex = async (bytes: Uint8Array) => Buffer.from(await globalThis.crypto.subtle.digest("SHA-256", new Uint8Array(bytes))).toString("hex")

/** A request signed as the adapter would sign it, then sent as is or altered: what S3 must refuse. */
const raw = async (method: string, key: string, body: Uint8Array, change: { readonly datetime?: string; readonly chunked?: boolean; readonly dropHash?: boolean } = {}) => {
  const url = `${endpoint}/${store.bucket}/${key}`
  const signer = new AwsV4Signer({
    method, url, headers: { "x-amz-content-sha256": await hex(body) }, ...(body.byteLength > 0 ? { body: new Uint8Array(body) } : {}),
    accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey, service: "s3", region: store.region,
    ...(change.datetime === undefined ? {} : { datetime: change.datetime })
  })
  const signed = await signer.sign()
  const headers = Object.fromEntries(signed.headers)
  if (change.dropHash === true) delete headers["x-amz-content-sha256"]
  const target = new URL(url)
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = httpRequest({
      host: "127.0.0.1", port: target.port, method, path: target.pathname,
      headers: { ...headers, ...(change.chunked === true ? { "transfer-encoding": "chunked" } : { "content-length": String(body.byteLength) }) }
    }, (incoming) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }))
    })
    outgoing.on("error", reject)
    outgoing.end(Buffer.from(body))
  })
}

describe(`the object store against AWS's S3 model (API ${apiVersion})`, () => {
  it("every request of put, read, size, delete and misses, in both styles and through an outage, and every answer match it", async () => {
    const before = store.exchanges.length
    const bytes = new TextEncoder().encode("sealed receipt bytes")
    for (const addressing of ["path", "virtual"] as const) {
      const s3 = S3BlobStore.client(store.settings({ addressing, prefix: "ledger/" }))
      await s3.put(`c1/receipt ${addressing}.bin`, bytes)
      expect(await s3.get(`c1/receipt ${addressing}.bin`)).toEqual(bytes)
      expect(await s3.head(`c1/receipt ${addressing}.bin`)).toBe(bytes.byteLength)
      await s3.remove(`c1/receipt ${addressing}.bin`)
      expect(await s3.get(`c1/receipt ${addressing}.bin`)).toBeNull()
      expect(await s3.head(`c1/receipt ${addressing}.bin`)).toBeNull()
      await s3.remove(`c1/receipt ${addressing}.bin`)
    }
    store.failNext(1)
    await S3BlobStore.client(store.settings()).put("c1/after-an-outage.bin", bytes)

    const exchanges = since(before)
    expect(exchanges.map((exchange) => `${exchange.method} ${exchange.status}`)).toEqual([
      ...["path", "virtual"].flatMap(() => ["PUT 200", "GET 200", "HEAD 200", "DELETE 204", "GET 404", "HEAD 404", "DELETE 204"]), "PUT 503", "PUT 200"
    ])
    expect(exchanges.flatMap((exchange) => requestProblems(exchange, store.bucket))).toEqual([])
    expect(exchanges.flatMap((exchange) => responseProblems(exchange, store.bucket))).toEqual([])
    expect(exchanges.find((exchange) => exchange.status === 404 && exchange.method === "GET")?.responseBody).toMatch(/<Error><Code>NoSuchKey<\/Code><Message>[^<]+<\/Message><Key>ledger\/c1\/receipt path\.bin<\/Key><RequestId>/u)
  })

  it("the fake refuses what S3 refuses: no Content-Length, no payload hash, a clock off by more than 15 minutes", async () => {
    const before = store.exchanges.length
    const body = new TextEncoder().encode("x")
    expect(await raw("PUT", "c2/chunked.bin", body, { chunked: true })).toMatchObject({ status: 411, body: expect.stringContaining("<Code>MissingContentLength</Code>") })
    expect(await raw("PUT", "c2/nohash.bin", body, { dropHash: true })).toMatchObject({ status: 400, body: expect.stringContaining("<Code>InvalidRequest</Code>") })
    const late = new Date(Date.now() - 20 * 60_000).toISOString().replace(/[:-]|\.\d{3}/gu, "")
    expect(await raw("GET", "c2/late.bin", new Uint8Array(), { datetime: late })).toMatchObject({ status: 403, body: expect.stringContaining("<Code>RequestTimeTooSkewed</Code>") })
    expect(await raw("PUT", "c2/fine.bin", body)).toMatchObject({ status: 200 })
    const refused = since(before)
    expect(refused.flatMap((exchange) => responseProblems(exchange, store.bucket))).toEqual([])
    // What the check says of the two malformed requests themselves.
    expect(refused.slice(0, 2).flatMap((exchange) => requestProblems(exchange, store.bucket))).toEqual([
      `PutObject /${store.bucket}/c2/chunked.bin: no Content-Length`,
      `PutObject /${store.bucket}/c2/nohash.bin: x-amz-content-sha256 is not a payload hash`
    ])
  })

  it("a request the model does not have is reported", () => {
    const signed = (headers: string) => `AWS4-HMAC-SHA256 Credential=AKIA/20260101/us-east-1/s3/aws4_request, SignedHeaders=${headers}, Signature=${"0".repeat(64)}`
    const good: Exchange = {
      method: "PUT", target: "/bucket-a/k.bin", bodyBytes: 3, status: 200, responseHeaders: {}, responseBody: "",
      headers: { host: "127.0.0.1:9000", "content-length": "3", "content-type": "application/octet-stream", "x-amz-content-sha256": "a".repeat(64), "x-amz-date": "20260101T000000Z", authorization: signed("content-type;host;x-amz-content-sha256;x-amz-date") }
    }
    expect(requestProblems(good, "bucket-a")).toEqual([])
    expect(requestProblems({ ...good, target: "/bucket-a/k.bin?uploads", headers: { ...good.headers, "x-amz-storage-class": "COLD", "x-amz-acl-extra": "1" } }, "bucket-a")).toEqual([
      "PutObject /bucket-a/k.bin: query uploads is not a member",
      "PutObject /bucket-a/k.bin: header x-amz-storage-class: \"COLD\" is not one of STANDARD, REDUCED_REDUNDANCY, STANDARD_IA, ONEZONE_IA, INTELLIGENT_TIERING, GLACIER, DEEP_ARCHIVE, OUTPOSTS, GLACIER_IR, SNOW, EXPRESS_ONEZONE",
      "PutObject /bucket-a/k.bin: header x-amz-acl-extra is not a member",
      "PutObject /bucket-a/k.bin: x-amz-storage-class is not signed",
      "PutObject /bucket-a/k.bin: x-amz-acl-extra is not signed"
    ])
    expect(requestProblems({ ...good, method: "GET", headers: { ...good.headers, authorization: signed("host;x-amz-date") } }, "bucket-a")).toEqual([
      "GetObject /bucket-a/k.bin: header content-type is not a member",
      "GetObject /bucket-a/k.bin: a body where the operation takes none",
      "GetObject /bucket-a/k.bin: x-amz-content-sha256 is not signed"
    ])
    expect(requestProblems({ ...good, target: "/Bucket_A/k.bin" }, "bucket-a")).toEqual(["PutObject /Bucket_A/k.bin: \"Bucket_A\" is not a bucket name"])
    expect(requestProblems({ ...good, target: "/bucket-a/" }, "bucket-a")).toEqual(["PUT /bucket-a/: no such operation of the objects' API"])
    expect(responseProblems({ ...good, method: "DELETE", status: 200 }, "bucket-a")).toEqual(["DeleteObject /bucket-a/k.bin answer: HTTP 200, the model says 204"])
    expect(responseProblems({ ...good, method: "GET", status: 404, responseBody: "<ErrorResponse><Error><Code>NoSuchKey</Code></Error></ErrorResponse>" }, "bucket-a")).toEqual([
      "GetObject /bucket-a/k.bin answer: not an <Error> with a <Code> (restXml, noErrorWrapping)"
    ])
  })
})
