/**
 * DEFLATE (RFC 1951) against a preset dictionary, for short texts written often and read rarely
 * (StoredAnswer.ts).
 *
 * The encoder writes one block of the fixed Huffman codes, with greedy matches found through hash
 * chains; any inflater given the same dictionary reads it (the tests read it with zlib). It keeps
 * its tables and buffers from call to call (calls are synchronous, so they never overlap) and, for
 * texts up to 64 KiB, allocates only its result: zlib's encoder, which builds a compressor per
 * call, cost a posting about 30 µs more of Node time and 5 % of the postings a second (ADR 0706).
 * For a text of a few hundred bytes that mostly matches the dictionary, fixed codes lose little to
 * dynamic ones (102 bytes against zlib's 100 for a two-line posting's answer).
 *
 * The decoder reads any DEFLATE stream (stored, fixed and dynamic blocks), as RFC 1951 and zlib's
 * `puff` describe it. It is pure JavaScript, as the engine is (it builds for any platform): fflate's
 * decoder, tried first, tripled the 99th percentile of a replay.
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
  if (dictionary.length > distanceMax - matchLengthMax) throw new Error("Deflate.encoder: the dictionary is larger than the window")
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

/** A canonical Huffman code as RFC 1951 3.2.2 builds it: how many codes of each length, and the symbols in code order. */
interface HuffmanCode {
  readonly counts: Uint16Array
  readonly symbols: Uint16Array
}

const codeLengthBitsMax = 15

const huffmanCode = (lengths: Uint8Array): HuffmanCode => {
  const counts = new Uint16Array(codeLengthBitsMax + 1)
  for (const length of lengths) counts[length]!++
  counts[0] = 0
  // A code whose lengths ask for more codes than there are is not a Huffman code.
  let left = 1
  for (let length = 1; length <= codeLengthBitsMax; length++) {
    left = (left << 1) - counts[length]!
    if (left < 0) throw new Error("Deflate.inflate: an over-subscribed Huffman code")
  }
  const offsets = new Uint16Array(codeLengthBitsMax + 2)
  for (let length = 1; length <= codeLengthBitsMax; length++) offsets[length + 1] = offsets[length]! + counts[length]!
  const symbols = new Uint16Array(lengths.length)
  for (let symbol = 0; symbol < lengths.length; symbol++) {
    if (lengths[symbol] !== 0) symbols[offsets[lengths[symbol]!]!++] = symbol
  }
  return { counts, symbols }
}

const fixedLiteralCode = huffmanCode(Uint8Array.from({ length: 288 }, (_, symbol) => symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8))
const fixedDistanceCode = huffmanCode(new Uint8Array(30).fill(5))
/** The order in which a dynamic block sends the lengths of its code-length code (RFC 1951 3.2.7). */
const codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

/**
 * The data of a raw DEFLATE stream written against `dictionary`: every block type, as any encoder
 * writes them. Refuses (throws) a stream that is not valid DEFLATE, that reaches back before the
 * dictionary, or that would inflate past `outputBytesMax`: stored bytes that are not what was
 * packed are a defect, and a limit keeps a bad record from taking the process's memory.
 */
export const inflate = (data: Uint8Array, dictionary: Uint8Array, outputBytesMax: number): Uint8Array => {
  const dictionaryLength = dictionary.length
  const outputEnd = dictionaryLength + outputBytesMax
  let output = new Uint8Array(dictionaryLength + Math.min(outputBytesMax, Math.max(256, data.length * 4)))
  output.set(dictionary)
  let outputLength = dictionaryLength
  const room = (bytes: number) => {
    if (outputLength + bytes > outputEnd) throw new Error(`Deflate.inflate: more than ${outputBytesMax} bytes`)
    if (outputLength + bytes <= output.length) return
    const larger = new Uint8Array(Math.min(outputEnd, Math.max(output.length * 2, outputLength + bytes)))
    larger.set(output.subarray(0, outputLength))
    output = larger
  }

  let position = 0
  let bitBuffer = 0
  let bitCount = 0
  const bits = (count: number): number => {
    while (bitCount < count) {
      if (position >= data.length) throw new Error("Deflate.inflate: the stream ends early")
      bitBuffer |= data[position++]! << bitCount
      bitCount += 8
    }
    const value = bitBuffer & ((1 << count) - 1)
    bitBuffer >>>= count
    bitCount -= count
    return value
  }
  // One bit at a time down the canonical code: slower than a lookup table, and plenty for
  // replays, which are the only reader.
  const decode = (code: HuffmanCode): number => {
    let value = 0
    let first = 0
    let index = 0
    for (let length = 1; length <= codeLengthBitsMax; length++) {
      value |= bits(1)
      const count = code.counts[length]!
      if (value - count < first) return code.symbols[index + value - first]!
      index += count
      first = (first + count) << 1
      value <<= 1
    }
    throw new Error("Deflate.inflate: a code that is not in the block's Huffman code")
  }
  const inflateCodes = (literals: HuffmanCode, distances: HuffmanCode) => {
    for (;;) {
      const symbol = decode(literals)
      if (symbol < 256) {
        room(1)
        output[outputLength++] = symbol
        continue
      }
      if (symbol === 256) return
      const lengthIndex = symbol - 257
      if (lengthIndex >= 29) throw new Error("Deflate.inflate: an invalid length code")
      const length = lengthBases[lengthIndex]! + bits(lengthExtraBits[lengthIndex]!)
      const distanceCode = decode(distances)
      if (distanceCode >= 30) throw new Error("Deflate.inflate: an invalid distance code")
      const distance = distanceBases[distanceCode]! + bits(distanceExtraBits[distanceCode]!)
      if (distance > outputLength) throw new Error("Deflate.inflate: a distance before the dictionary")
      room(length)
      // Byte by byte: a match may overlap what it writes.
      for (let copied = 0; copied < length; copied++) {
        output[outputLength] = output[outputLength - distance]!
        outputLength++
      }
    }
  }

  let last = 0
  while (last === 0) {
    last = bits(1)
    const type = bits(2)
    if (type === 0) {
      bitBuffer = 0
      bitCount = 0
      if (position + 4 > data.length) throw new Error("Deflate.inflate: the stream ends early")
      const length = data[position]! | data[position + 1]! << 8
      const lengthComplement = data[position + 2]! | data[position + 3]! << 8
      position += 4
      if (length !== (~lengthComplement & 0xffff)) throw new Error("Deflate.inflate: a stored block's length does not check")
      if (position + length > data.length) throw new Error("Deflate.inflate: the stream ends early")
      room(length)
      output.set(data.subarray(position, position + length), outputLength)
      outputLength += length
      position += length
    } else if (type === 1) {
      inflateCodes(fixedLiteralCode, fixedDistanceCode)
    } else if (type === 2) {
      const literalCount = bits(5) + 257
      const distanceCount = bits(5) + 1
      const codeLengthCount = bits(4) + 4
      if (literalCount > 286 || distanceCount > 30) throw new Error("Deflate.inflate: too many codes in a dynamic block")
      const codeLengthLengths = new Uint8Array(19)
      for (let index = 0; index < codeLengthCount; index++) codeLengthLengths[codeLengthOrder[index]!] = bits(3)
      const codeLengthCode = huffmanCode(codeLengthLengths)
      const lengths = new Uint8Array(literalCount + distanceCount)
      for (let index = 0; index < lengths.length;) {
        const symbol = decode(codeLengthCode)
        if (symbol < 16) {
          lengths[index++] = symbol
          continue
        }
        let repeated = 0
        let times: number
        if (symbol === 16) {
          if (index === 0) throw new Error("Deflate.inflate: a repeat with nothing to repeat")
          repeated = lengths[index - 1]!
          times = 3 + bits(2)
        } else {
          times = symbol === 17 ? 3 + bits(3) : 11 + bits(7)
        }
        if (index + times > lengths.length) throw new Error("Deflate.inflate: code lengths past the block's codes")
        lengths.fill(repeated, index, index + times)
        index += times
      }
      if (lengths[256] === 0) throw new Error("Deflate.inflate: a dynamic block with no end-of-block code")
      inflateCodes(huffmanCode(lengths.subarray(0, literalCount)), huffmanCode(lengths.subarray(literalCount)))
    } else {
      throw new Error("Deflate.inflate: an invalid block type")
    }
  }
  return output.slice(dictionaryLength, outputLength)
}
