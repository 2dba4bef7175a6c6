/**
 * What may break a limit of the tidy test or an arrow of the cycles test today, each with its
 * reason. Keep it short: an entry is a debt with a name on it, not a permission. "to split" means
 * the file or function is due to be split and the lead decides how.
 */

export interface AllowedFile {
  /** Repository-relative path. */
  readonly file: string
  /** The most lines it may have until it is split (so it cannot keep growing). */
  readonly linesMax: number
  readonly reason: string
}

export interface AllowedFunction {
  readonly file: string
  /** The function's name as the tidy test reports it: `write`, `GroupCommit > layer > Effect.gen`. */
  readonly name: string
  readonly linesMax: number
  readonly reason: string
}

export interface AllowedFolder {
  readonly folder: string
  readonly filesMax: number
  readonly reason: string
}

export interface AllowedArrow {
  readonly from: string
  readonly to: string
  readonly reason: string
}

export const allowedFiles: ReadonlyArray<AllowedFile> = [
  { file: "packages/api/src/banking/Records.ts", linesMax: 323, reason: "to split" },
  { file: "packages/api/src/sales/Documents.ts", linesMax: 320, reason: "to split" },
  { file: "packages/engine/src/banking/BankFeeds.ts", linesMax: 363, reason: "to split" },
  { file: "packages/engine/src/banking/Reconciliations.ts", linesMax: 423, reason: "to split" },
  { file: "packages/engine/src/banking/statement/Csv.ts", linesMax: 320, reason: "to split" },
  { file: "packages/engine/src/ledger/Accounts.ts", linesMax: 316, reason: "to split" },
  { file: "packages/engine/src/ledger/JournalBatch.ts", linesMax: 321, reason: "to split" },
  { file: "packages/engine/src/ledger/JournalEntryStore.ts", linesMax: 361, reason: "to split" },
  { file: "packages/engine/src/sales/DocumentResolution.ts", linesMax: 364, reason: "to split" },
  { file: "packages/server/src/storage/pglite/PgliteSql.ts", linesMax: 444, reason: "to split" },
  { file: "packages/engine/src/banking/Imports.ts", linesMax: 325, reason: "to split: the import handler grew chunked reading and the line bound this wave (ADR 0407)" },
  { file: "packages/engine/src/integrations/Sync.ts", linesMax: 430, reason: "to split: the sync job and its run bookkeeping (ADR 1604)" },
  { file: "packages/server/src/adapters/CryptoPorts.ts", linesMax: 468, reason: "to split: one adapter per rail (Esplora, Monero wallet RPC, EVM, Solana) belongs in adapters/crypto/ (ADR 1506)" },
  { file: "packages/testkit/src/fakes/FakeChain.ts", linesMax: 374, reason: "to split: one fake per chain API, as the adapters (ADR 1506)" },
]

export const allowedFunctions: ReadonlyArray<AllowedFunction> = [
  { file: "packages/engine/src/banking/FeedSync.ts", name: "run > Effect.fn(\"FeedSync.run\")", linesMax: 168, reason: "to split" },
  { file: "packages/engine/src/banking/Imports.ts", name: "handlers > Handler.make > Effect.gen", linesMax: 167, reason: "to split" },
  { file: "packages/engine/src/banking/Matching.ts", name: "handlers > Handler.make > Effect.gen", linesMax: 98, reason: "to split" },
  { file: "packages/engine/src/banking/statement/Csv.ts", name: "read", linesMax: 150, reason: "to split" },
  { file: "packages/engine/src/banking/statement/Ofx.ts", name: "read", linesMax: 217, reason: "to split" },
  { file: "packages/engine/src/ledger/Governed.ts", name: "write > Effect.gen", linesMax: 96, reason: "to split" },
  { file: "packages/engine/src/ledger/JournalBatch.ts", name: "write > Effect.fn(\"JournalBatch.write\")", linesMax: 136, reason: "to split" },
  { file: "packages/engine/src/pipeline/DeflateEncoder.ts", name: "encoder", linesMax: 106, reason: "one hot loop of the stored answers' encoder, kept whole for speed: fflate's encoder cost 2.5 to 3 times the CPU per posting (ADR 0800)" },
  { file: "packages/engine/src/pipeline/batching/GroupCommit.ts", name: "GroupCommit > layer > Effect.gen", linesMax: 86, reason: "to split" },
  { file: "packages/engine/src/reports/GeneralLedger.ts", name: "report > Effect.fn(\"GeneralLedger.report\")", linesMax: 118, reason: "to split" },
  { file: "packages/engine/src/reports/GeneralLedger.ts", name: "report > Effect.fn(\"GeneralLedger.report\") > Effect.gen", linesMax: 107, reason: "to split" },
  { file: "packages/engine/src/sales/Applications.ts", name: "check > Effect.fn(\"Applications.check\")", linesMax: 74, reason: "to split" },
  { file: "packages/engine/src/sales/DocumentStore.ts", name: "persist > Effect.fn(\"DocumentStore.persist\")", linesMax: 72, reason: "to split" },
  { file: "packages/engine/src/sales/DocumentStore.ts", name: "loadMany > Effect.fn(\"DocumentStore.loadMany\")", linesMax: 83, reason: "to split" },
  { file: "packages/engine/src/sales/Pdf.ts", name: "render > Effect.promise", linesMax: 127, reason: "to split" },
  { file: "packages/server/src/storage/pglite/PgliteProtocol.ts", name: "read", linesMax: 102, reason: "to split" },
  { file: "packages/testkit/src/fakes/FakeAggregator.ts", name: "make", linesMax: 139, reason: "to split: the fake's script methods (ports)" },
  { file: "bench/lib/OpenLoop.ts", name: "phase", linesMax: 105, reason: "to split: a benchmark's driver (bench is the lead's)" },
  { file: "bench/lib/ServerProcess.ts", name: "start", linesMax: 76, reason: "to split: a benchmark's driver (bench is the lead's)" },
  { file: "bench/memory-limit.ts", name: "runOne", linesMax: 75, reason: "to split: a benchmark's driver (bench is the lead's)" },
  { file: "packages/engine/src/taxforms/Amounts.ts", name: "summary > Effect.fn(\"Amounts.summary\")", linesMax: 73, reason: "to split" },
  { file: "packages/testkit/src/fakes/FakeChain.ts", name: "make", linesMax: 211, reason: "to split" },
  { file: "packages/testkit/src/fakes/FakePaymentProcessor.ts", name: "make", linesMax: 82, reason: "to split" },
  { file: "test/reports/example-company.ts", name: "bookExampleCompany", linesMax: 82, reason: "to split" },
  { file: "test/sales/control-accounts.test.ts", name: "run", linesMax: 84, reason: "to split" },
  { file: "test/web/w9-and-batch.test.ts", name: "describe.skipIf(!hasChromium) > it", linesMax: 75, reason: "to split" },
]

export const allowedFolders: ReadonlyArray<AllowedFolder> = [
  { folder: "packages/engine/src/banking", filesMax: 16, reason: "to split: statement parsing is already banking/statement/; rules and reconciliations next" },
  { folder: "packages/engine/src/ledger", filesMax: 22, reason: "to split: the books; proposals and periods could be folders of their own" },
  { folder: "packages/engine/src/sales", filesMax: 39, reason: "to split: sales holds documents, payments, recurring, email, tax and aging; sub-areas by resource" },
  { folder: "packages/api/src/errors", filesMax: 20, reason: "one leaf file per area: the error tables ApiError folds (issue 18); a folder of leaves keeps areas from importing back" },
  { folder: "packages/engine/src/auth", filesMax: 16, reason: "to split: sign-in steps (email, passkeys, TOTP, recovery) could be a folder of their own" },
  { folder: "test/sales", filesMax: 16, reason: "sales tests, one file per resource; control accounts and Unicode PDFs joined this wave" },
]

export const allowedArrows: ReadonlyArray<AllowedArrow> = []
