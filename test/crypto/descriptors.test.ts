import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CryptoKeys as Keys, DescriptorChecksum } from "@ledger/engine/rules"
import { fixture } from "./support.ts"

/** BIP 380 descriptor checksums against the BIP's vectors (test/fixtures/bitcoin, SOURCES.md). */

const vectors = fixture("bip380_descriptor_checksum_vectors.json")
const bip86 = fixture("bip86_test_vectors.json").entries
const checksumCharset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

describe("BIP 380 checksum vectors", () => {
  const cases = (list: Array<any>): Array<[string, string]> => list.map((vector) => [String(vector.name), String(vector.descriptor)])
  it.each(cases(vectors.valid))("accepts %s", (_name, descriptor) => {
    expect(DescriptorChecksum.check(descriptor)).toMatchObject({ ok: true, body: "raw(deadbeef)" })
  })
  it.each(cases(vectors.invalid))("refuses %s", (_name, descriptor) => {
    expect(DescriptorChecksum.check(descriptor).ok).toBe(false)
  })
  it("computes the checksum of the valid vector", () => {
    expect(DescriptorChecksum.checksumOf("raw(deadbeef)")).toBe("89f8spxm")
  })
  it("agrees with BIP 380's reference code on watch-only descriptors", () => {
    for (const descriptor of vectors.derived.descriptors as Array<string>) {
      const [body, checksum] = descriptor.split("#")
      expect(DescriptorChecksum.checksumOf(body!)).toBe(checksum)
    }
  })
})

describe("wallet descriptors with a checksum", () => {
  const [withChecksum] = vectors.derived.descriptors.filter((descriptor: string) => descriptor.startsWith("tr("))
  const receive = bip86.find((entry: any) => entry.label === "Account 0, first receiving address = m/86'/0'/0'/0/0")

  it("derives the same addresses as without it, and the BIP 86 first receive address", () => {
    const body = withChecksum.split("#")[0]
    const checked = Keys.describe({ rail: "btc", key: withChecksum })
    expect(checked.firstAddress).toBe(Keys.describe({ rail: "btc", key: body }).firstAddress)
    expect(checked.firstAddress).toBe(receive.address)
  })

  it("refuses a wrong checksum, whichever character is changed", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 31 }), (position, shift) => {
      const [body, checksum] = withChecksum.split("#") as [string, string]
      const changed = checksumCharset[(checksumCharset.indexOf(checksum[position]!) + shift) % 32]!
      const wrong = `${body}#${checksum.slice(0, position)}${changed}${checksum.slice(position + 1)}`
      expect(() => Keys.describe({ rail: "btc", key: wrong })).toThrow(Keys.KeyInvalid)
    }))
  })

  it("refuses a descriptor whose body was changed under its checksum", () => {
    const changed = withChecksum.replace("/0/*)", "/1/*)")
    expect(() => Keys.describe({ rail: "btc", key: changed })).toThrow(/checksum does not match/u)
  })
})
