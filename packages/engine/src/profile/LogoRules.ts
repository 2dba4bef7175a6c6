import { XMLParser } from "fast-xml-parser"
import { Profile } from "@ledger/api"

/**
 * A logo is a PNG or an SVG, told by its bytes (spec 8.2). A PNG is read from its header (size,
 * pixels a side, not interlaced). An SVG is parsed (no DOCTYPE, so no entities to expand) and
 * rebuilt from an allow-list of elements and attributes: anything that could run or fetch
 * (scripts, event handlers, `foreignObject`, references outside the file, CSS `url()` to
 * anything but a local `#id`, `@import`) refuses the file; other unknown parts are dropped and listed.
 */

const limits = Profile.Records.limits

export type Checked =
  | { readonly _tag: "Png"; readonly bytes: Uint8Array; readonly width: number; readonly height: number }
  | { readonly _tag: "Svg"; readonly bytes: Uint8Array; readonly width: number | null; readonly height: number | null; readonly cleaned: ReadonlyArray<string> }
  | { readonly _tag: "Refused"; readonly reason: string; readonly unsupported?: boolean; readonly tooLarge?: boolean }

const pngMagic = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

const u32 = (bytes: Uint8Array, offset: number) =>
  ((bytes[offset]! << 24) >>> 0) + (bytes[offset + 1]! << 16) + (bytes[offset + 2]! << 8) + bytes[offset + 3]!

export const isPng = (bytes: Uint8Array) => pngMagic.every((byte, index) => bytes[index] === byte)

export const checkPng = (bytes: Uint8Array): Checked => {
  if (bytes.byteLength > limits.pngBytesMax) return { _tag: "Refused", reason: `A PNG logo is at most ${limits.pngBytesMax} bytes.`, tooLarge: true }
  const ihdr = String.fromCharCode(...bytes.slice(12, 16))
  if (bytes.byteLength < 33 || ihdr !== "IHDR") return { _tag: "Refused", reason: "The PNG has no image header." }
  const width = u32(bytes, 16)
  const height = u32(bytes, 20)
  if (width === 0 || height === 0 || width > limits.pngSideMax || height > limits.pngSideMax) {
    return { _tag: "Refused", reason: `A logo is at most ${limits.pngSideMax} pixels a side; this one is ${width} x ${height}.` }
  }
  if (bytes[28] !== 0) return { _tag: "Refused", reason: "Interlaced PNGs are not accepted: save it without interlacing." }
  return { _tag: "Png", bytes, width, height }
}

const elements = new Set([
  "svg", "g", "defs", "title", "desc", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "tspan",
  "lineargradient", "radialgradient", "stop", "clippath", "mask", "symbol", "use", "style"
])
const forbiddenElements = new Set(["script", "foreignobject", "iframe", "object", "embed", "image", "feimage", "animate", "set", "animatetransform", "animatemotion", "handler", "listener", "a"])
const attributes = new Set([
  "xmlns", "xmlns:xlink", "version", "id", "class", "width", "height", "viewbox", "preserveaspectratio", "x", "y", "x1", "y1", "x2", "y2",
  "cx", "cy", "r", "rx", "ry", "d", "points", "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
  "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "opacity", "transform", "offset", "stop-color",
  "stop-opacity", "gradientunits", "gradienttransform", "clip-path", "clip-rule", "mask", "font-family", "font-size", "font-weight",
  "text-anchor", "dominant-baseline", "style", "href", "xlink:href", "dx", "dy", "spreadmethod", "fx", "fy", "clippathunits", "display", "visibility"
])

type Node = Record<string, unknown>
const escape = (text: string) => text.replace(/&/gu, "&amp;").replace(/</gu, "&lt;").replace(/>/gu, "&gt;").replace(/"/gu, "&quot;")

/** Why a value could run or fetch something, or null. */
const dangerousValue = (name: string, value: string): string | null => {
  const lower = value.toLowerCase().replace(/\s+/gu, "")
  if ((name === "href" || name === "xlink:href") && !value.startsWith("#")) return `${name} points outside the file`
  if (/javascript:|data:|vbscript:|@import|expression\(/u.test(lower)) return `${name} holds script or an import`
  for (const match of lower.matchAll(/url\(([^)]*)\)/gu)) if (!/^['"]?#/u.test(match[1]!)) return `${name} loads a url()`
  return null
}

const dimension = (value: unknown): number | null => {
  const number = Number.parseFloat(String(value ?? ""))
  return Number.isFinite(number) ? number : null
}

export const checkSvg = (bytes: Uint8Array): Checked => {
  if (bytes.byteLength > limits.svgBytesMax) return { _tag: "Refused", reason: `An SVG logo is at most ${limits.svgBytesMax} bytes.`, tooLarge: true }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes)
  if (/<!DOCTYPE|<!ENTITY/iu.test(text)) return { _tag: "Refused", reason: "The SVG declares a DOCTYPE or entities; they are not accepted." }
  let tree: Array<Node>
  try {
    tree = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: "", processEntities: false, allowBooleanAttributes: true, parseAttributeValue: false, parseTagValue: false, trimValues: false }).parse(text) as Array<Node>
  } catch (error) {
    return { _tag: "Refused", reason: `The SVG is not well-formed XML: ${(error as Error).message}` }
  }
  const root = tree.find((node) => Object.keys(node).some((key) => key.toLowerCase() === "svg"))
  if (root === undefined) return { _tag: "Refused", reason: "The file is not an SVG." }
  const cleaned: Array<string> = []
  let refusal: string | null = null
  const build = (node: Node): string => {
    const name = Object.keys(node).find((key) => key !== ":@")!
    if (name === "#text") return escape(String(node[name]))
    const lower = name.toLowerCase()
    if (forbiddenElements.has(lower)) refusal ??= `<${name}> is not allowed in a logo`
    if (!elements.has(lower) || refusal !== null) {
      if (!forbiddenElements.has(lower) && !name.startsWith("?") && !name.startsWith("#")) cleaned.push(`element ${name}`)
      return ""
    }
    const attrs = Object.entries((node[":@"] ?? {}) as Record<string, string>).flatMap(([key, value]) => {
      const attr = key.toLowerCase()
      if (attr.startsWith("on")) refusal ??= `the event handler ${key} is not allowed`
      const danger = dangerousValue(attr, String(value))
      if (danger !== null) refusal ??= danger
      if (!attributes.has(attr)) {
        cleaned.push(`attribute ${key}`)
        return []
      }
      return [` ${key}="${escape(String(value))}"`]
    })
    const children = (node[name] as Array<Node>).map(build).join("")
    if (lower === "style" && dangerousValue("style", children) !== null) refusal ??= "the stylesheet loads a url() or imports"
    return `<${name}${attrs.join("")}>${children}</${name}>`
  }
  const rebuilt = build(root)
  if (refusal !== null) return { _tag: "Refused", reason: `The SVG could run or fetch something: ${refusal}.` }
  const attrs = (root[":@"] ?? {}) as Record<string, string>
  const width = dimension(attrs.width)
  const height = dimension(attrs.height)
  if ((width ?? 0) > limits.pngSideMax || (height ?? 0) > limits.pngSideMax) {
    return { _tag: "Refused", reason: `A logo is at most ${limits.pngSideMax} units a side.` }
  }
  return { _tag: "Svg", bytes: new TextEncoder().encode(rebuilt), width: width === null ? null : Math.round(width), height: height === null ? null : Math.round(height), cleaned: Array.from(new Set(cleaned)) }
}

/** A PNG by its magic number, else an SVG by its markup, else neither. */
export const check = (bytes: Uint8Array): Checked => {
  if (isPng(bytes)) return checkPng(bytes)
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.slice(0, 1024)).replace(/^\uFEFF/u, "").trimStart()
  // Markup that opens an <svg> element (after any declaration, comment or DOCTYPE) is an SVG candidate.
  if (head.startsWith("<") && /<svg[\s>]/iu.test(head)) return checkSvg(bytes)
  return { _tag: "Refused", reason: "A logo is a PNG or an SVG; these bytes are neither.", unsupported: true }
}
