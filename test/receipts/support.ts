import { deflateSync } from "node:zlib"
import { Layer } from "effect"
import { FakeReceiptReader } from "@ledger/testkit"
import { Ports as ServerPorts, ReceiptPorts, type S3BlobStore } from "@ledger/server/adapters"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"

/**
 * The receipts tests' app: test/support's app with the ports receipts need, wired as a server
 * wires them: the encrypted blob store over a master key for an in-memory data folder, and the
 * testkit's fake receipt reader (or none, `reader: false`).
 */

export interface Company {
  readonly companyId: string
  readonly ownerKey: string
  readonly ownerId: number
}

export const makeReceiptsApp = async (options: {
  readonly reader?: boolean
  readonly clock?: boolean | string
  /** Files in an S3-compatible bucket (the testkit's FakeObjectStore) instead of the database table. */
  readonly objectStore?: S3BlobStore.Settings
} = {}) => {
  const reader = FakeReceiptReader.make()
  const base = ServerPorts.wire({ dataDir: "memory" }).layer
  const receipts = ReceiptPorts.wire({
    dataDir: "memory",
    ...(options.reader === false ? {} : { receiptReader: reader.layer }),
    ...(options.objectStore === undefined ? {} : { objectStore: options.objectStore }),
    environment: {}
  }, false).layer
  const app = await makeTestApp({ providers: Layer.mergeAll(base, receipts), ...(options.clock === undefined ? {} : { clock: options.clock }) })
  const write = (path: string, token: string, body: unknown) => app.call("POST", path, { token, body, key: newKey() })
  const createCompany = async (name = "Receipts Co"): Promise<Company> => {
    const made = await app.createCompany({ name })
    return { companyId: made.companyId, ownerKey: made.ownerKey, ownerId: made.ownerId }
  }
  const upload = (company: Company, bytes: Uint8Array, fileName = "receipt.pdf", extra: Record<string, unknown> = {}) =>
    write("/v1/receipts", company.ownerKey, { file_name: fileName, content_base64: Buffer.from(bytes).toString("base64"), ...extra })
  return { ...app, app: app as TestApp, write, createCompany, upload, reader }
}

export type ReceiptsApp = Awaited<ReturnType<typeof makeReceiptsApp>>

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (bytes: Uint8Array) => {
  let c = 0xffffffff
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type: string, data: Uint8Array) => {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, "latin1")
  Buffer.from(data).copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/** A real PNG (RGB, 8 bits), `seed` colouring its pixels so that each seed is a different file. */
export const png = (width = 4, height = 4, seed = 0, interlace = 0): Uint8Array => {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8
  header[9] = 2
  header[12] = interlace
  const rows = Buffer.alloc((width * 3 + 1) * height)
  for (let index = 0; index < rows.length; index++) rows[index] = index % (width * 3 + 1) === 0 ? 0 : (index * 7 + seed) & 0xff
  return new Uint8Array(Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", new Uint8Array())
  ]))
}

/** A minimal JFIF JPEG header and body (enough for a reader of magic numbers), different per seed. */
export const jpeg = (seed = 0): Uint8Array =>
  new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, seed & 0xff, 0xff, 0xd9])

/** An ISO BMFF `ftyp` box of brand heic. */
export const heic = (): Uint8Array =>
  new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63, 0, 0, 0, 0, 0x6d, 0x69, 0x66, 0x31, 0x68, 0x65, 0x69, 0x63, 0, 0, 0, 8, 0x6d, 0x65, 0x74, 0x61])

/** A Linux executable's header (ELF), and a Windows one (MZ/PE). */
export const elf = (): Uint8Array => new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0x3e, 0, 1, 0, 0, 0])
