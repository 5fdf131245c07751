// The Reports tab's bar chart: SVG drawn with the page on the server (readable and printable
// without JavaScript, no chart library shipped), bars stacked above the axis and one part (what
// was given back) beneath it; each bar's hover text is its SVG title.

/** One bar: its label, the parts stacked above the line and the one beneath it. */
export interface Bar {
  label: string;
  parts: { name: string; value: number; tone: number }[];
  below: number;
}

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 64;
const BOTTOM = 28;

/** A stacked bar chart: parts above the axis, `below` (refunds) beneath it. */
export function BarChart({ title, bars, format }: { title: string; bars: Bar[]; format: (value: number) => string }) {
  const top = Math.max(1, ...bars.map((bar) => bar.parts.reduce((sum, part) => sum + part.value, 0)));
  const bottom = Math.max(0, ...bars.map((bar) => bar.below));
  const plot = HEIGHT - BOTTOM - 12;
  const scale = plot / (top + bottom);
  const axis = 12 + top * scale;
  const step = (WIDTH - LEFT) / Math.max(1, bars.length);
  const width = Math.max(2, Math.min(40, step * 0.7));
  // At most five labels: they stay apart on a phone too.
  const labelEvery = Math.ceil(bars.length / 5);
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`${title}: the table below gives each figure`}
      preserveAspectRatio="xMinYMin meet"
    >
      <text className="chart__scale" x={LEFT - 6} y={16} textAnchor="end">
        {format(top)}
      </text>
      <line className="chart__axis" x1={LEFT} x2={WIDTH} y1={axis} y2={axis} />
      <text className="chart__scale" x={LEFT - 6} y={axis + 4} textAnchor="end">
        {format(0)}
      </text>
      {bottom > 0 && (
        <text className="chart__scale" x={LEFT - 6} y={HEIGHT - BOTTOM} textAnchor="end">
          {`−${format(bottom)}`}
        </text>
      )}
      {bars.map((bar, index) => {
        const x = LEFT + index * step + (step - width) / 2;
        let y = axis;
        return (
          <g key={bar.label}>
            <title>{hover(bar, format)}</title>
            {bar.parts
              .filter((part) => part.value > 0)
              .map((part) => {
                const height = part.value * scale;
                y -= height;
                return (
                  <rect
                    key={part.name}
                    className={`chart__bar chart__bar--${part.tone}`}
                    x={x}
                    y={y}
                    width={width}
                    height={height}
                  />
                );
              })}
            {bar.below > 0 && (
              <rect className="chart__bar chart__bar--below" x={x} y={axis} width={width} height={bar.below * scale} />
            )}
            {index % labelEvery === 0 && (
              <text className="chart__label" x={x + width / 2} y={HEIGHT - 8} textAnchor="middle">
                {bar.label.replace(/^Week of /, "")}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** What a bar says on hover: one string, as an SVG title must be. */
function hover(bar: Bar, format: (value: number) => string): string {
  const parts =
    bar.parts
      .filter((part) => part.value !== 0)
      .map((part) => `${part.name} ${format(part.value)}`)
      .join(", ") || "nothing";
  return `${bar.label}: ${parts}${bar.below > 0 ? `; given back ${format(bar.below)}` : ""}`;
}
