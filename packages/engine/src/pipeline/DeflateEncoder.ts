/**
 * A DEFLATE (RFC 1951) encoder against a preset dictionary, for the short texts written on every
 * posting (StoredAnswer.ts). Reading them back is fflate's `inflateSync`.
 *
 * Why the engine keeps an encoder of its own (ADR 0800): fflate's `deflateSync` allocates about
 * 175 KB of tables for each call (a 64 KB chain, a 100 KB symbol buffer) and builds dynamic Huffman
 * codes; for a 670-byte answer that cost a posting about 55 µs of CPU in isolation and several
 * hundred in the server, where those allocations drive the collector. zlib's encoder builds a
 * compressor per call (about 30 µs more a posting, ADR 0706) and would be the engine's first
 * platform module. This one writes one block of the fixed Huffman codes with greedy matches found
 * through hash chains, keeps its tables and buffers from call to call (calls are synchronous, so
 * they never overlap) and, for texts up to 64 KiB, allocates only its result: about 3 µs an answer.
 * For a text of a few hundred bytes that mostly matches the dictionary, fixed codes lose little to
 * dynamic ones (103 bytes against fflate's 102 and zlib's 102 for a posting's answer). Any inflater
 * given the same dictionary reads it: the tests read it with zlib and fflate.
 */

/** DEFLATE's largest match distance: no match reaches further back than this. */
const distanceMax = 32_768
const matchLengthMin = 4
const matchLengthMax = 258
/** How many earlier places with the same hash are tried for each position: bounds the work per byte. */
const chainDepthMax = 16
const hashBits = 13
const hashSize = 1 << hashBits
/** The largest data whose buffers an encoder keeps between calls: most answers are far smaller. */
const scratchBytesMax = 64 * 1024

/** The most an encoding of `dataBytes` can take: 9 bits a byte (fixed codes), plus the block's header and end. */
const outputBytesMaxOf = (dataBytes: number) => Math.ceil(dataBytes * 9 / 8) + 8

// RFC 1951 3.2.5: the lengths and distances each code stands for.
const lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
const lengthExtraBits = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
const distanceBases = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193,
  12289, 16385, 24577
]
const distanceExtraBits = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

/** The length code index (0 to 28, symbol 257 + index) of every match length. */
const lengthIndexOf = new Uint8Array(matchLengthMax + 1)
for (let index = 0; index < 28; index++) {
  for (let length = lengthBases[index]!; length < lengthBases[index]! + (1 << lengthExtraBits[index]!); length++) {
    lengthIndexOf[length] = index
  }
}
lengthIndexOf[258] = 28

/** The distance code (0 to 29) of every distance. */
const distanceCodeOf = new Uint8Array(distanceMax + 1)
for (let code = 0; code < 30; code++) {
  for (let distance = distanceBases[code]!; distance < distanceBases[code]! + (1 << distanceExtraBits[code]!); distance++) {
    distanceCodeOf[distance] = code
  }
}

const reverseBits = (code: number, bitCount: number): number => {
  let reversed = 0
  for (let bit = 0; bit < bitCount; bit++) reversed |= ((code >>> bit) & 1) << (bitCount - 1 - bit)
  return reversed
}

// RFC 1951 3.2.6: the fixed literal/length code, bit-reversed, since Huffman codes are packed
// starting with their most significant bit into a stream written least significant bit first.
const symbolCodes = new Uint16Array(288)
const symbolBitCounts = new Uint8Array(288)
for (let symbol = 0; symbol < 288; symbol++) {
  const [code, bitCount] = symbol < 144
    ? [0x30 + symbol, 8]
    : symbol < 256
    ? [0x190 + symbol - 144, 9]
    : symbol < 280
    ? [symbol - 256, 7]
    : [0xc0 + symbol - 280, 8]
  symbolCodes[symbol] = reverseBits(code, bitCount)
  symbolBitCounts[symbol] = bitCount
}
const distanceCodes = Uint8Array.from({ length: 30 }, (_, code) => reverseBits(code, 5))

const hashAt = (bytes: Uint8Array, position: number): number =>
  (Math.imul(bytes[position]! | bytes[position + 1]! << 8 | bytes[position + 2]! << 16 | bytes[position + 3]! << 24, 0x9e3779b1) >>>
    (32 - hashBits))

/** An encoder for one dictionary. Not re-entrant: calls must not overlap (they are synchronous). */
export interface Encoder {
  /** The raw DEFLATE stream of `data` against the dictionary. */
  readonly deflate: (data: Uint8Array) => Uint8Array
}

export const encoder = (dictionary: Uint8Array): Encoder => {
  if (dictionary.length > distanceMax - matchLengthMax) throw new Error("DeflateEncoder.encoder: the dictionary is larger than the window")
  const dictionaryLength = dictionary.length
  // Positions are stored plus one, so that zero means "none".
  const dictionaryHeads = new Int32Array(hashSize)
  const dictionaryChain = new Int32Array(dictionaryLength)
  for (let position = 0; position + 3 < dictionaryLength; position++) {
    const hash = hashAt(dictionary, position)
    dictionaryChain[position] = dictionaryHeads[hash]!
    dictionaryHeads[hash] = position + 1
  }
  // Kept from call to call: the hash heads and chain, and for data up to `scratchBytesMax` the
  // window (the dictionary followed by the data) and the output. Larger data gets buffers of its
  // own for that call, so one large answer does not stay in memory for the life of the process.
  const heads = new Int32Array(hashSize)
  const chain = new Int32Array(distanceMax)
  const scratchWindow = new Uint8Array(dictionaryLength + scratchBytesMax)
  scratchWindow.set(dictionary)
  const scratchOutput = new Uint8Array(outputBytesMaxOf(scratchBytesMax))

  // The state of the call under way (calls are synchronous: one at a time).
  let window = scratchWindow
  let output = scratchOutput
  let outputLength = 0
  let bitBuffer = 0
  let bitCount = 0
  const writeBits = (value: number, count: number) => {
    bitBuffer |= value << bitCount
    bitCount += count
    while (bitCount >= 8) {
      output[outputLength++] = bitBuffer & 0xff
      bitBuffer >>>= 8
      bitCount -= 8
    }
  }
  const writeSymbol = (symbol: number) => writeBits(symbolCodes[symbol]!, symbolBitCounts[symbol]!)
  const insert = (position: number) => {
    const hash = hashAt(window, position)
    chain[position & (distanceMax - 1)] = heads[hash]!
    heads[hash] = position + 1
  }

  const deflate = (data: Uint8Array): Uint8Array => {
    const end = dictionaryLength + data.length
    if (data.length <= scratchBytesMax) {
      window = scratchWindow
      output = scratchOutput
    } else {
      window = new Uint8Array(end)
      window.set(dictionary)
      output = new Uint8Array(outputBytesMaxOf(data.length))
    }
    window.set(data, dictionaryLength)
    heads.set(dictionaryHeads)
    chain.set(dictionaryChain)
    outputLength = 0
    bitBuffer = 0
    bitCount = 0

    // The last block (BFINAL 1), of fixed codes (BTYPE 01).
    writeBits(1, 1)
    writeBits(1, 2)
    let position = dictionaryLength
    while (position < end) {
      let bestLength = 0
      let bestDistance = 0
      if (position + matchLengthMin <= end) {
        const lengthMax = Math.min(matchLengthMax, end - position)
        let candidate = heads[hashAt(window, position)]! - 1
        for (let depth = 0; depth < chainDepthMax && candidate >= 0 && position - candidate <= distanceMax; depth++) {
          let length = 0
          while (length < lengthMax && window[candidate + length] === window[position + length]) length++
          if (length > bestLength) {
            bestLength = length
            bestDistance = position - candidate
            if (length === lengthMax) break
          }
          const next = chain[candidate & (distanceMax - 1)]! - 1
          // A chain entry older than the window was overwritten by a newer position: stop there.
          if (next >= candidate) break
          candidate = next
        }
      }
      if (bestLength >= matchLengthMin) {
        const lengthIndex = lengthIndexOf[bestLength]!
        writeSymbol(257 + lengthIndex)
        if (lengthExtraBits[lengthIndex]! > 0) writeBits(bestLength - lengthBases[lengthIndex]!, lengthExtraBits[lengthIndex]!)
        const distanceCode = distanceCodeOf[bestDistance]!
        writeBits(distanceCodes[distanceCode]!, 5)
        if (distanceExtraBits[distanceCode]! > 0) writeBits(bestDistance - distanceBases[distanceCode]!, distanceExtraBits[distanceCode]!)
        for (let inserted = 0; inserted < bestLength; inserted++) {
          if (position + 3 < end) insert(position)
          position++
        }
      } else {
        writeSymbol(window[position]!)
        if (position + 3 < end) insert(position)
        position++
      }
    }
    writeSymbol(256)
    if (bitCount > 0) output[outputLength++] = bitBuffer & 0xff
    return output.slice(0, outputLength)
  }
  return { deflate }
}

