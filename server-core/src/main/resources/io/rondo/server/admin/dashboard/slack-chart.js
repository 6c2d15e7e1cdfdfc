// The slack of each round, drawn as papers/000 draws it in Figure 2: the available slack in ms
// (y) against the round number (x), one line per disk over the last five minutes of rounds, with
// the zero line below which deadlines are missed, the round length as the top, and each overrun
// as a red point.
//
// Drawn with uPlot 1.6.32 (MIT, Leon Sorokin), vendored from the npm package uplot@1.6.32:
// vendor/uPlot.esm.js and vendor/uPlot.min.css are its dist/ files unchanged, vendor/LICENSE its
// licence.

import uPlot from './vendor/uPlot.esm.js';
import { $, el } from './dom.js';
import { formatMs } from './format.js';
import { overrunsText, spanText } from './rounds.js';

/** One colour a disk, in the order the disks are named. */
const DISK_COLOURS = ['#2f6fe4', '#1f9e89', '#8c5bd6', '#e08a1e', '#d04f8a', '#5d6678'];
const BAD = '#c23b3b';
const HEIGHT = 280;
/** The steps between the round axis's ticks: whole rounds. */
const ROUND_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 1e7];
/** Below zero the scale shows at least this share of the round, so the zero line never sits on the edge. */
const FLOOR_SHARE = 0.2;

export class SlackChart {
  #element;
  #legend;
  #plot = null;
  #disks = [];
  #roundMs = 1000;
  #history = null;
  #pending = false;

  /** element: where the chart goes; its data-rounds says how many rounds the last drawing held. */
  constructor(element, legend) {
    this.#element = element;
    this.#legend = legend;
    new ResizeObserver(() => this.#plot?.setSize(this.#size())).observe(element);
  }

  /** Draws history's rounds of these disks, rounds roundMs long, at the next frame. */
  show(history, disks, roundMs) {
    this.#history = history;
    if (roundMs !== this.#roundMs || disks.join() !== this.#disks.join()) {
      this.#roundMs = roundMs;
      this.#disks = [...disks];
      this.#plot?.destroy();
      this.#plot = null;
    }
    if (!this.#pending) {
      this.#pending = true;
      requestAnimationFrame(() => {
        this.#pending = false;
        this.#draw();
      });
    }
  }

  #draw() {
    const { x, slack, overruns } = this.#history.columns(this.#disks);
    const data = [x, ...slack, ...overruns];
    if (this.#plot) {
      this.#plot.setData(data);
    } else {
      this.#plot = new uPlot(this.#options(), data, this.#element);
    }
    this.#paintLegend(slack, overruns);
    $('slack-span').textContent = spanText(x.length, this.#history.capacity, this.#roundMs);
  }

  #size() {
    return { width: Math.max(this.#element.clientWidth, 200), height: HEIGHT };
  }

  #options() {
    const roundMs = this.#roundMs;
    const line = (disk, i) => ({
      label: disk, stroke: DISK_COLOURS[i % DISK_COLOURS.length], width: 1.5, points: { show: false },
      value: (u, v) => formatMs(v),
    });
    const overrun = (disk) => ({
      label: `${disk} overruns`, stroke: BAD, fill: BAD, paths: () => null,
      points: { show: true, size: 7, stroke: BAD, fill: BAD },
    });
    return {
      ...this.#size(),
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: { time: false },
        y: { range: (u, min) => [Math.min(-FLOOR_SHARE * roundMs, min ?? 0), roundMs] },
      },
      axes: [
        {
          label: 'Round', stroke: '#5d6678', grid: { stroke: '#eef0f4' }, incrs: ROUND_STEPS,
          values: (u, rounds) => rounds.map(String),
        },
        { label: 'Available slack [ms]', stroke: '#5d6678', grid: { stroke: '#eef0f4' }, size: 56 },
      ],
      series: [{ label: 'Round' }, ...this.#disks.map(line), ...this.#disks.map(overrun)],
      hooks: {
        drawAxes: [(u) => this.#drawLimits(u)],
        draw: [(u) => {
          this.#element.dataset.rounds = String(u.data[0].length);
          this.#element.dataset.points = String(u.data.slice(1, 1 + this.#disks.length)
            .reduce((sum, column) => sum + column.filter((v) => v !== null).length, 0));
        }],
      },
    };
  }

  /** The zero line and the round length at the top, under the disks' lines. */
  #drawLimits(u) {
    const { ctx, bbox } = u;
    const across = (value, colour, dash, label) => {
      const y = Math.round(u.valToPos(value, 'y', true)) + 0.5;
      ctx.save();
      ctx.strokeStyle = colour;
      ctx.lineWidth = uPlot.pxRatio;
      ctx.setLineDash(dash.map((d) => d * uPlot.pxRatio));
      ctx.beginPath();
      ctx.moveTo(bbox.left, y);
      ctx.lineTo(bbox.left + bbox.width, y);
      ctx.stroke();
      ctx.fillStyle = colour;
      ctx.font = `${11 * uPlot.pxRatio}px system-ui, sans-serif`;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'bottom';
      ctx.fillText(label, bbox.left + 4 * uPlot.pxRatio, y - 4 * uPlot.pxRatio);
      ctx.restore();
    };
    across(0, '#1d2330', [], 'no slack: deadlines missed below');
    across(this.#roundMs, '#9aa2b1', [4, 4], `round length ${this.#roundMs} ms`);
  }

  /** Each disk's colour, newest slack, lowest slack and overruns over the chart's span. */
  #paintLegend(slack, overruns) {
    this.#legend.replaceChildren(...this.#disks.map((disk, i) => {
      const values = slack[i].filter((v) => v !== null);
      const over = overruns[i].filter((v) => v !== null).length;
      return el('li', {},
        el('span', { className: 'swatch', style: `background:${DISK_COLOURS[i % DISK_COLOURS.length]}` }),
        el('strong', {}, disk),
        ` now ${formatMs(values.at(-1) ?? null)}, lowest ${formatMs(values.length ? Math.min(...values) : null)}, `,
        el('span', { className: over > 0 ? 'bad' : '' }, overrunsText(over, values.length)));
    }));
    $('slack-empty').hidden = this.#disks.length > 0 && slack.some((column) => column.some((v) => v !== null));
  }
}
