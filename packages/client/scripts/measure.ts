/**
 * What the SDK costs its users (docs/performance.md, "SDK cost"): type-checks a 21-line consumer
 * script with `tsc --noEmit --extendedDiagnostics` and bundles a browser entry that imports only
 * the Promise client with esbuild (minified). The consumer lives in a temporary folder inside the
 * repository so that `@ledger/client` resolves to the workspace package, as an installed one would.
 *
 *   node packages/client/scripts/measure.ts          # prints the figures
 *   node packages/client/scripts/measure.ts --json   # one JSON line, for scripts
 *
 * test/cost.test.ts holds the figures that do not depend on the machine (instantiations, bytes).
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")
const bin = (name: string) => join(root, "node_modules/.bin", name)
/** esbuild comes with tsup (pnpm hoists its bin to the virtual store's .bin), not as a direct dependency. */
const esbuild = [join(root, "node_modules/.bin/esbuild"), join(root, "node_modules/.pnpm/node_modules/.bin/esbuild")]
  .find((path) => existsSync(path)) ?? "esbuild"

/** The 21-line script a user writes first. */
export const consumer = `import { createClient, isClientError } from "@ledger/client"

const client = createClient({ baseUrl: "https://ledger.example.com", token: "ldg_test" })

export async function main(): Promise<string> {
  const me = await client.getMe()
  const accounts = await client.listAccounts({ limit: 50 })
  const invoice = await client.createInvoice({
    contact_id: 1,
    doc_date: "2026-01-31",
    lines: [{ account: "4000", amount_cents: 10_000, description: "Consulting" }]
  })
  const preview = await client.createInvoice({ contact_id: 1, doc_date: "2026-01-31", lines: [], dry_run: true })
  try {
    await client.getKey({ id: 7 })
  } catch (error) {
    if (isClientError(error, "not_found")) return error.message
  }
  return \`\${me.company.company_id} \${accounts.data.length} \${"id" in invoice ? invoice.id : invoice.status} \${preview.dry_run}\`
}
`

const tsconfig = {
  extends: "../tsconfig.base.json",
  compilerOptions: { types: [], lib: ["ES2023", "DOM"] },
  files: ["consumer.ts"]
}

const figure = (output: string, label: string): number | null => {
  const match = new RegExp(`^${label}:\\s+([\\d.]+)`, "m").exec(output)
  return match === null ? null : Number(match[1])
}

export const measureTypes = () => {
  const folder = mkdtempSync(join(root, ".sdk-measure-"))
  try {
    writeFileSync(join(folder, "consumer.ts"), consumer)
    writeFileSync(join(folder, "tsconfig.json"), JSON.stringify(tsconfig, null, 2))
    let output: string
    let ok = true
    try {
      output = execFileSync(bin("tsc"), ["-p", folder, "--extendedDiagnostics"], { cwd: root, encoding: "utf8", maxBuffer: 1 << 26 })
    } catch (error) {
      const failed = error as { readonly stdout?: string; readonly stderr?: string }
      output = `${failed.stdout ?? ""}${failed.stderr ?? ""}`
      ok = false
    }
    return {
      ok,
      errors: ok ? "" : output.split("\n").filter((line) => line.includes("error TS")).join("\n"),
      checkSeconds: figure(output, "Check time"),
      totalSeconds: figure(output, "Total time"),
      memoryMB: Math.round((figure(output, "Memory used") ?? 0) / 1024),
      instantiations: figure(output, "Instantiations"),
      types: figure(output, "Types"),
      files: figure(output, "Files")
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

export const measureBundle = (entry = `import { createClient } from "@ledger/client"\nexport const client = createClient({ baseUrl: "/" })\nexport const call = () => client.getMe()\n`) => {
  const folder = mkdtempSync(join(root, ".sdk-measure-"))
  try {
    writeFileSync(join(folder, "entry.ts"), entry)
    const out = join(folder, "bundle.js")
    execFileSync(
      esbuild,
      [join(folder, "entry.ts"), "--bundle", "--minify", "--format=esm", "--platform=browser", `--outfile=${out}`, "--metafile=" + join(folder, "meta.json"), "--log-level=error"],
      { cwd: root, encoding: "utf8" }
    )
    const meta = JSON.parse(readFileSync(join(folder, "meta.json"), "utf8")) as {
      readonly outputs: Record<string, { readonly bytes: number; readonly inputs: Record<string, { readonly bytesInOutput: number }> }>
    }
    const outputs = Object.values(meta.outputs)
    const bytes = outputs.reduce((sum, file) => sum + file.bytes, 0)
    const inputs = outputs.flatMap((file) => Object.entries(file.inputs))
    const bytesOf = (test: (path: string) => boolean) =>
      inputs.filter(([path]) => test(path)).reduce((sum, [, input]) => sum + input.bytesInOutput, 0)
    return {
      bundleKB: Math.round(bytes / 1024),
      effectKB: Math.round(bytesOf((path) => path.includes("node_modules/effect") || path.includes("/effect@")) / 1024),
      apiKB: Math.round(bytesOf((path) => path.includes("packages/api/")) / 1024)
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const types = measureTypes()
  const bundle = measureBundle()
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify({ ...types, ...bundle }))
  } else {
    console.log(`type-check: ${types.ok ? "ok" : "ERRORS"}`)
    if (!types.ok) console.log(types.errors)
    console.log(`  check time      ${types.checkSeconds} s (total ${types.totalSeconds} s)`)
    console.log(`  memory          ${types.memoryMB} MB`)
    console.log(`  instantiations  ${types.instantiations}`)
    console.log(`  types           ${types.types}`)
    console.log(`  files           ${types.files}`)
    console.log(`browser bundle (Promise client, minified): ${bundle.bundleKB} KB, of which effect ${bundle.effectKB} KB, @ledger/api ${bundle.apiKB} KB`)
  }
}
