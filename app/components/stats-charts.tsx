import { useId, type ReactNode } from 'react';

/*
 * The statistics' charts (issue 22, /admin/stats): plain SVG drawn on the server, no chart library and no script.
 * Every length is a percentage of the width or a fixed pixel height, so the text stays its size from 360 px to a
 * laptop; colours are app/styles' variables (light and dark). Each chart is a figure with a title and a
 * description, and its numbers in a table beside it (screen readers, JS off, and exact values).
 */

export interface Series {
  key: string;
  label: string;
  /** One of the chart colour classes in admin.css: 1 (primary), 2 (amber), 3 (muted). */
  tone: 1 | 2 | 3;
}

export interface ChartRow {
  label: string;
  values: Record<string, number>;
}

interface FrameProps {
  title: string;
  /** The table's region name: distinct from the chart's section (two landmarks may not share a name). */
  tableLabel: string;
  description: string;
  testId: string;
  table: ReactNode;
  children: (ids: { title: string; desc: string }) => ReactNode;
}

function ChartFrame({ title, tableLabel, description, testId, table, children }: FrameProps) {
  const id = useId();
  const ids = { title: `${id}-title`, desc: `${id}-desc` };
  return (
    <section className="card chart-card" aria-labelledby={ids.title} data-testid={testId}>
      <h2 id={ids.title}>
        {title}
      </h2>
      <p id={ids.desc} className="small muted">
        {description}
      </p>
      <div className="chart-pair">
        <div className="chart-figure">{children(ids)}</div>
        <div className="chart-table" role="region" aria-label={tableLabel} tabIndex={0}>
          {table}
        </div>
      </div>
    </section>
  );
}

function DataTable({ caption, head, rows, series, format }: { caption: string; head: string; rows: ChartRow[]; series: Series[]; format: (n: number) => string }) {
  return (
    <table className="admin-table chart-data">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{head}</th>
          {series.map((s) => (
            <th scope="col" key={s.key}>
              {s.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            {series.map((s) => (
              <td key={s.key}>{format(row.values[s.key] ?? 0)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Legend({ series }: { series: Series[] }) {
  if (series.length < 2) return null;
  return (
    <ul className="chart-legend" aria-hidden="true">
      {series.map((s) => (
        <li key={s.key}>
          <span className={`chart-swatch chart-tone-${s.tone}`} />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

const pct = (n: number) => `${Number(n.toFixed(3))}%`;

/**
 * Columns over time (days, weeks, months), stacked when there are several series. The axis shows the largest
 * total and the first and last labels; the table has every value.
 */
export function ColumnChart({
  title,
  tableLabel,
  description,
  testId,
  head,
  rows,
  series,
  format = String,
}: {
  title: string;
  tableLabel: string;
  description: string;
  testId: string;
  head: string;
  rows: ChartRow[];
  series: Series[];
  format?: (n: number) => string;
}) {
  const height = 160;
  const top = 18;
  const bottom = 20;
  const plot = height - top - bottom;
  const totals = rows.map((r) => series.reduce((sum, s) => sum + (r.values[s.key] ?? 0), 0));
  const max = Math.max(0, ...totals);
  const slot = rows.length ? 100 / rows.length : 100;
  const gap = rows.length > 60 ? 0 : slot * 0.2;
  return (
    <ChartFrame
      title={title}
      tableLabel={tableLabel}
      description={description}
      testId={testId}
      table={<DataTable caption={title} head={head} rows={rows} series={series} format={format} />}
    >
      {(ids) => (
        <>
          <Legend series={series} />
          <svg className="chart" width="100%" height={height} role="img" aria-labelledby={ids.title} aria-describedby={ids.desc}>
            <line className="chart-grid" x1="0" x2="100%" y1={top} y2={top} />
            <line className="chart-grid" x1="0" x2="100%" y1={top + plot / 2} y2={top + plot / 2} />
            <line className="chart-axis" x1="0" x2="100%" y1={top + plot} y2={top + plot} />
            {rows.map((row, i) => {
              let base = top + plot;
              return series.map((s) => {
                const value = row.values[s.key] ?? 0;
                if (value <= 0 || max === 0) return null;
                const h = Math.max(1, (value / max) * plot);
                base -= h;
                return (
                  <rect key={`${row.label}-${s.key}`} className={`chart-tone-${s.tone}`} x={pct(i * slot + gap / 2)} width={pct(slot - gap)} y={base} height={h}>
                    <title>{`${row.label} ${s.label}: ${format(value)}`}</title>
                  </rect>
                );
              });
            })}
            <text className="chart-label" x="0" y="12">
              {format(max)}
            </text>
            {rows.length > 0 ? (
              <>
                <text className="chart-label" x="0" y={height - 4}>
                  {rows[0]!.label}
                </text>
                {rows.length > 1 ? (
                  <text className="chart-label" x="100%" y={height - 4} textAnchor="end">
                    {rows[rows.length - 1]!.label}
                  </text>
                ) : null}
              </>
            ) : null}
          </svg>
        </>
      )}
    </ChartFrame>
  );
}

/** Horizontal bars for categories (statuses, cities, guides, ratings, funnel steps): label, value, bar. */
export function BarChart({
  title,
  tableLabel,
  description,
  testId,
  head,
  valueHead,
  rows,
  format = String,
  empty,
}: {
  title: string;
  tableLabel: string;
  description: string;
  testId: string;
  head: string;
  valueHead: string;
  rows: { label: string; value: number }[];
  format?: (n: number) => string;
  empty: string;
}) {
  const rowHeight = 34;
  const max = Math.max(0, ...rows.map((r) => r.value));
  const series: Series[] = [{ key: 'value', label: valueHead, tone: 1 }];
  const tableRows = rows.map((r) => ({ label: r.label, values: { value: r.value } }));
  return (
    <ChartFrame
      title={title}
      tableLabel={tableLabel}
      description={description}
      testId={testId}
      table={rows.length ? <DataTable caption={title} head={head} rows={tableRows} series={series} format={format} /> : <p className="muted">{empty}</p>}
    >
      {(ids) =>
        rows.length ? (
          <svg className="chart" width="100%" height={rows.length * rowHeight} role="img" aria-labelledby={ids.title} aria-describedby={ids.desc}>
            {rows.map((row, i) => {
              const y = i * rowHeight;
              const width = max > 0 ? (row.value / max) * 100 : 0;
              return (
                <g key={row.label}>
                  <text className="chart-label chart-label-strong" x="0" y={y + 13}>
                    {row.label}
                  </text>
                  <text className="chart-label" x="100%" y={y + 13} textAnchor="end">
                    {format(row.value)}
                  </text>
                  <rect className="chart-track" x="0" y={y + 18} width="100%" height="10" rx="3" />
                  {width > 0 ? <rect className="chart-tone-1" x="0" y={y + 18} width={pct(width)} height="10" rx="3" /> : null}
                </g>
              );
            })}
          </svg>
        ) : (
          <p className="muted">{empty}</p>
        )
      }
    </ChartFrame>
  );
}
