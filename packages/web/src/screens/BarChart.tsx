import { formatCents } from "../money.ts"

/**
 * A small horizontal bar chart of a report's totals, drawn as SVG (no chart library, nothing
 * fetched). Bar lengths are pixels, so a ratio is fine there; the amounts written beside the bars
 * and in the accessible name come from money.ts, never from a float.
 */
export const BarChart = (props: { readonly title: string; readonly bars: ReadonlyArray<{ readonly label: string; readonly cents: number }> }) => {
  const largest = Math.max(1, ...props.bars.map((bar) => Math.abs(bar.cents)))
  const row = 28
  const width = 560
  const labelWidth = 150
  const barSpace = 260
  const description = props.bars.map((bar) => `${bar.label} ${formatCents(bar.cents)}`).join(", ")
  return (
    <figure className="chart">
      <svg role="img" aria-label={`${props.title}: ${description}`} viewBox={`0 0 ${width} ${row * props.bars.length}`} width="100%">
        {props.bars.map((bar, index) => {
          const length = Math.round((Math.abs(bar.cents) / largest) * barSpace)
          const y = index * row
          return (
            <g key={bar.label}>
              <text x={0} y={y + 18} fontSize="14" fill="#1a1a1a">{bar.label}</text>
              <rect x={labelWidth} y={y + 5} width={length} height={18} fill={bar.cents < 0 ? "#a4000f" : "#0b5cad"} />
              <text x={labelWidth + length + 6} y={y + 18} fontSize="14" fill="#1a1a1a">{formatCents(bar.cents)}</text>
            </g>
          )
        })}
      </svg>
      <figcaption>{props.title}</figcaption>
    </figure>
  )
}
