import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { XMLParser, XMLValidator } from "fast-xml-parser"

/**
 * Checks qbXML documents (the desktop edition's language, spoken through the Web Connector) against
 * Intuit's qbXML 13.0 SDK schemas (test/fixtures/providers/qbxml: an excerpt of qbxml130.xsd,
 * qbxmlops130.xsd and qbxmltypes130.xsd, kept as test data only; see its SOURCES.md).
 *
 * QuickBooks parses a request against these schemas and refuses the whole document on the first
 * element out of place ("QuickBooks found an error when parsing the provided XML text stream"), so
 * order matters: every element's children must follow its content model (xsd:sequence order,
 * choices, minOccurs/maxOccurs), every attribute must be declared (required ones present) and
 * every value must be of its simple type (enumerations such as ActiveStatus and PaidStatus,
 * patterns of amounts and dates, maximum lengths).
 *
 * Requests: `<?qbxml version="13.0"?>`, then QBXML/QBXMLMsgsRq with `onError`, each *Rq one of the
 * queries the adapter sends. Answers: QBXML/QBXMLMsgsRs, each *Rs with `statusCode` and
 * `statusSeverity` and its *Ret records as the schema has them.
 */

type Type = string | { readonly simple: Simple } | { readonly complex: Complex }
interface Simple {
  readonly base?: Type | string
  readonly enum?: ReadonlyArray<string>
  readonly pattern?: string
  readonly maxLength?: number
  readonly union?: ReadonlyArray<string | Simple>
}
interface Complex {
  readonly simple?: string
  readonly content?: Particle
  readonly attributes?: Record<string, { readonly type: Type; readonly required?: true }>
}
interface Particle {
  readonly min: number
  readonly max: number | "unbounded"
  readonly ref?: string
  readonly name?: string
  readonly type?: Type
  readonly group?: string
  readonly items?: ReadonlyArray<Particle>
  readonly sequence?: ReadonlyArray<Particle>
  readonly choice?: ReadonlyArray<Particle>
}

const file = fileURLToPath(new URL("../../fixtures/providers/qbxml/qbxml130-subset.json", import.meta.url))
export const description: {
  readonly version: string
  readonly requests: ReadonlyArray<string>
  readonly responses: ReadonlyArray<string>
  readonly elements: Record<string, Type>
  readonly types: Record<string, Type>
} = JSON.parse(readFileSync(file, "utf8"))

interface Node { readonly tag: string; readonly attributes: Record<string, string>; readonly children: ReadonlyArray<Node>; readonly text: string }

const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: "", parseTagValue: false, parseAttributeValue: false, trimValues: true, processEntities: true })
const nodeOf = (raw: Record<string, any>): Node => {
  const tag = Object.keys(raw).find((key) => key !== ":@")!
  const content: Array<Record<string, any>> = Array.isArray(raw[tag]) ? raw[tag] : []
  return {
    tag,
    attributes: raw[":@"] ?? {},
    children: content.filter((child) => !("#text" in child)).map(nodeOf),
    text: content.filter((child) => "#text" in child).map((child) => String(child["#text"])).join("")
  }
}

/** The complex or simple definition a type reference stands for. */
const resolve = (type: Type): { simple?: Simple; complex?: Complex; builtin?: string } => {
  if (typeof type !== "string") return type
  if (type.startsWith("xsd:")) return { builtin: type }
  const named = description.types[type]
  if (named === undefined) throw new Error(`type ${type} is not in the description`)
  return resolve(named)
}

const builtins: Record<string, RegExp> = {
  "xsd:boolean": /^(true|false|1|0)$/u,
  "xsd:date": /^\d{4}-\d{2}-\d{2}$/u,
  "xsd:integer": /^[+-]?\d+$/u,
  "xsd:decimal": /^[+-]?(\d+(\.\d*)?|\.\d+)$/u,
  "xsd:duration": /^-?P/u
}

/** Problems of a text against a simple type (empty when it is one). */
export const simpleProblems = (type: Type | string, text: string, at: string): Array<string> => {
  const found = resolve(type as Type)
  if (found.builtin !== undefined) return builtins[found.builtin] === undefined || builtins[found.builtin]!.test(text) ? [] : [`${at}: "${text}" is not an ${found.builtin}`]
  const simple = found.simple ?? (found.complex?.simple === undefined ? undefined : resolve(found.complex.simple).simple)
  if (simple === undefined) return [`${at}: text where the schema has elements`]
  if (simple.union !== undefined) {
    return simple.union.some((member) => simpleProblems(typeof member === "string" ? member : { simple: member }, text, at).length === 0) ? [] : [`${at}: "${text}" is none of the union's types`]
  }
  if (simple.enum !== undefined && !simple.enum.includes(text)) return [`${at}: "${text}" is not one of ${simple.enum.join(", ")}`]
  if (simple.pattern !== undefined && !new RegExp(`^(?:${simple.pattern})$`).test(text)) return [`${at}: "${text}" does not match ${simple.pattern}`]
  if (simple.maxLength !== undefined && [...text].length > simple.maxLength) return [`${at}: "${text}" is longer than ${simple.maxLength}`]
  return simple.base === undefined ? [] : simpleProblems(simple.base, text, at)
}

/** The positions after matching `particle` from each of `from` (regular-expression matching over names). */
const reach = (particle: Particle, names: ReadonlyArray<string>, from: ReadonlySet<number>, furthest: { at: number }): Set<number> => {
  const once = (starts: ReadonlySet<number>): Set<number> => {
    const name = particle.ref ?? particle.name
    if (name !== undefined) {
      const out = new Set<number>()
      for (const start of starts) if (names[start] === name) {
        out.add(start + 1)
        furthest.at = Math.max(furthest.at, start + 1)
      }
      return out
    }
    if (particle.choice !== undefined) return new Set(particle.choice.flatMap((item) => [...reach(item, names, starts, furthest)]))
    return (particle.sequence ?? particle.items ?? []).reduce<Set<number>>((positions, item) => reach(item, names, positions, furthest), new Set(starts))
  }
  let current = new Set(from)
  const out = new Set<number>(particle.min === 0 ? from : [])
  const max = particle.max === "unbounded" ? names.length + 1 : particle.max
  for (let count = 1; count <= max && current.size > 0; count++) {
    const next = once(current)
    if (count >= particle.min) for (const position of next) out.add(position)
    // Nothing new consumed: further repetitions reach nothing more.
    if ([...next].every((position) => current.has(position)) && count >= particle.min) break
    current = next
  }
  return out
}

/** Problems of an element against its declared type: attributes, then children in order, then each child. */
export const elementProblems = (node: Node, type: Type, at: string): Array<string> => {
  const found = resolve(type)
  const complex = found.complex
  const declared = complex?.attributes ?? {}
  const problems: Array<string> = []
  for (const [name, value] of Object.entries(node.attributes)) {
    const attribute = declared[name]
    if (attribute === undefined) problems.push(`${at}: attribute ${name} is not declared`)
    else problems.push(...simpleProblems(attribute.type, value, `${at}@${name}`))
  }
  for (const [name, attribute] of Object.entries(declared)) if (attribute.required === true && node.attributes[name] === undefined) problems.push(`${at}: attribute ${name} is required`)
  if (complex === undefined || complex.simple !== undefined) {
    if (node.children.length > 0) return [...problems, `${at}: elements where the schema has a value`]
    return [...problems, ...simpleProblems(type, node.text, at)]
  }
  const names = node.children.map((child) => child.tag)
  if (complex.content === undefined) return names.length === 0 ? problems : [...problems, `${at}: ${names[0]} where the schema has no elements`]
  const furthest = { at: 0 }
  if (!reach(complex.content, names, new Set([0]), furthest).has(names.length)) {
    problems.push(furthest.at < names.length
      ? `${at}: ${names[furthest.at]} is not allowed here (after ${names.slice(0, furthest.at).join(", ") || "nothing"})`
      : `${at}: a required element is missing after ${names.join(", ") || "nothing"}`)
    return problems
  }
  node.children.forEach((child, index) => problems.push(...elementProblems(child, declarationIn(complex.content!, child.tag)!, `${at}/${child.tag}[${index}]`)))
  return problems
}

/** The type a child element has in a content model (by its name: qbXML never gives two children one name with two types). */
const declarationIn = (particle: Particle, name: string): Type | undefined => {
  if (particle.ref === name) return description.elements[name]
  if (particle.name === name) return particle.type ?? "xsd:string"
  for (const item of particle.choice ?? particle.sequence ?? particle.items ?? []) {
    const found = declarationIn(item, name)
    if (found !== undefined) return found
  }
  return undefined
}

const documentOf = (xml: string): { root?: Node; problems: Array<string> } => {
  if (/<!DOCTYPE|<!ENTITY/iu.test(xml)) return { problems: ["a DTD in a qbXML document"] }
  const valid = XMLValidator.validate(xml)
  if (valid !== true) return { problems: [`not XML: ${valid.err.msg}`] }
  const roots = (parser.parse(xml) as Array<Record<string, any>>).filter((raw) => !Object.keys(raw).some((key) => key.startsWith("?"))).map(nodeOf)
  if (roots.length !== 1 || roots[0]!.tag !== "QBXML") return { problems: ["the document element is not QBXML"] }
  return { root: roots[0]!, problems: [] }
}

/** What is wrong with a request document by the schemas; empty when nothing is. */
export const requestProblems = (xml: string): Array<string> => {
  const { root, problems } = documentOf(xml)
  if (root === undefined) return problems
  const version = /<\?qbxml version="([\d.]+)"\?>/u.exec(xml)?.[1]
  if (version !== description.version) problems.push(`the qbxml processing instruction names version ${version ?? "none"}, not ${description.version}`)
  if (root.children[0]?.tag !== "QBXMLMsgsRq") return [...problems, "QBXML does not hold QBXMLMsgsRq"]
  return [...problems, ...elementProblems(root, description.elements.QBXML!, "QBXML")]
}

/** What is wrong with an answer document by the schemas; empty when nothing is. */
export const responseProblems = (xml: string): Array<string> => {
  const { root, problems } = documentOf(xml)
  if (root === undefined) return problems
  if (root.children[0]?.tag !== "QBXMLMsgsRs") return [...problems, "QBXML does not hold QBXMLMsgsRs"]
  return [...problems, ...elementProblems(root, description.elements.QBXML!, "QBXML")]
}

/**
 * What the adapter must send beyond the schemas: a list query asks for inactive records too
 * (`<ActiveStatus>All</ActiveStatus>`; the schema's default is ActiveOnly, so an inactive account
 * with history would be missing and the tie-out could never pass, issue 39 item 10).
 */
export const adapterProblems = (xml: string): Array<string> => {
  const { root, problems } = documentOf(xml)
  if (root === undefined) return problems
  const messages = root.children.find((child) => child.tag === "QBXMLMsgsRq")
  return [...problems, ...(messages?.children ?? []).flatMap((query) => {
    const list = ["AccountQueryRq", "CustomerQueryRq", "VendorQueryRq", "ItemQueryRq"].includes(query.tag)
    const status = query.children.find((child) => child.tag === "ActiveStatus")?.text
    return list && status !== "All" ? [`${query.tag}: ActiveStatus is ${status ?? "absent (ActiveOnly)"}, not All`] : []
  })]
}

/**
 * The Web Connector's SOAP operations by Intuit's `QBWebConnectorSvc.wsdl` (document/literal,
 * namespace http://developer.intuit.com/; listed in test/fixtures/providers/qbxml/SOURCES.md, the
 * WSDL itself not kept): each answer is `<{operation}Response>` holding only `<{operation}Result>`,
 * of the type the WSDL gives it.
 */
export const soapOperations: Record<string, "string" | "int" | "ArrayOfString"> = {
  serverVersion: "string", clientVersion: "string", authenticate: "ArrayOfString", sendRequestXML: "string",
  receiveResponseXML: "int", connectionError: "string", getLastError: "string", closeConnection: "string"
}

const soapParser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: "", parseTagValue: false, trimValues: false, processEntities: false })

/** What is wrong with the adapter's SOAP answer to `operation`, by the WSDL; empty when nothing is. */
export const soapProblems = (operation: string, text: string): Array<string> => {
  const kind = soapOperations[operation]
  if (kind === undefined) return [`${operation}: not an operation of QBWebConnectorSvc`]
  if (XMLValidator.validate(text) !== true) return [`${operation}: the answer is not XML`]
  const envelope = (soapParser.parse(text) as Array<Record<string, any>>).filter((raw) => !Object.keys(raw).some((key) => key.startsWith("?"))).map(nodeOf)[0]
  const body = envelope?.tag === "soap:Envelope" ? envelope.children.find((child) => child.tag === "soap:Body") : undefined
  if (body === undefined) return [`${operation}: not a SOAP 1.1 envelope with a Body`]
  const response = body.children[0]
  if (body.children.length !== 1 || response?.tag !== `${operation}Response`) return [`${operation}: the Body holds ${body.children.map((child) => child.tag).join(", ") || "nothing"}, not ${operation}Response`]
  const problems: Array<string> = []
  if (response.attributes.xmlns !== "http://developer.intuit.com/") problems.push(`${operation}Response: not in the namespace http://developer.intuit.com/`)
  const result = response.children[0]
  if (response.children.length !== 1 || result?.tag !== `${operation}Result`) return [...problems, `${operation}Response: holds ${response.children.map((child) => child.tag).join(", ") || "nothing"}, not ${operation}Result`]
  if (kind === "int" && !/^-?\d+$/u.test(result.text)) problems.push(`${operation}Result: "${result.text}" is not an int`)
  if (kind === "ArrayOfString" && (result.children.length === 0 || result.children.some((child) => child.tag !== "string"))) problems.push(`${operation}Result: not an ArrayOfString (string elements)`)
  if (kind !== "ArrayOfString" && result.children.length > 0) problems.push(`${operation}Result: elements where the WSDL has a ${kind}`)
  return problems
}
