import * as ReadJob from "./banking/statement/ReadJob.ts"
import * as ConsentPdf from "./ai-consent/ConsentPdf.ts"
import type { Job } from "./kernel/offload/HeavyWork.ts"
import * as QbxmlPage from "./migrations/QbxmlPage.ts"
import * as PreviewPdf from "./profile/PreviewPdf.ts"
import * as HtmlReceipt from "./receipts/HtmlReceipt.ts"
import * as PdfText from "./receipts/PdfText.ts"
import * as Pdf from "./sales/common/Pdf.ts"

/**
 * Every job the engine hands to `HeavyWork` (kernel/offload/HeavyWork.ts), by name: the table a
 * server's worker threads run them from (`@ledger/engine/jobs`, server/offload/PoolWorker.ts). Its
 * own entry point, so a worker loads these parsers and renderers, not the whole engine (ADR 2320).
 */
export const jobs: ReadonlyMap<string, Job<any, any>> = new Map<string, Job<any, any>>(
  [
    ReadJob.readStatement,
    PdfText.readText,
    QbxmlPage.readPage,
    Pdf.renderJob,
    ConsentPdf.renderJob,
    PreviewPdf.renderJob,
    HtmlReceipt.snapshotJob
  ].map((each) => [each.name, each])
)

export { HeavyWorkRefused, type Job, job, ownBuffer, type Runner } from "./kernel/offload/HeavyWork.ts"
