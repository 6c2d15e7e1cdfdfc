// The panels painted straight from a resource: the server's details in the header, each disk's
// D-response against its bound (the disks resource), the admission decisions (the admission
// resource) and the live recordings with their write rounds (the live resource).

import { $, el } from './dom.js';
import {
  DASH, formatBitRate, formatBytes, formatClock, formatMs, formatPosition, formatShare, formatUptime,
} from './format.js';

/** The bar's full width is this much past the bound, so that a response past it shows as past. */
const BAR_HEADROOM = 1.25;

/** Why a stream was refused, as a person reads it (the admission resource's reasons). */
export const REASONS = {
  'disk-time': 'no disk time left in the round',
  'buffer-memory': 'no buffer memory left',
  network: 'no network capacity left',
  'client-profile': 'the client\'s profile is too small',
  draining: 'the server is drained',
};

/** The header: version, state and uptime (counted from the start), and the addresses served. */
export function paintInfo(info, nowMs) {
  const uptime = info.startedAt ? (nowMs - Date.parse(info.startedAt)) / 1000 : info.uptimeSeconds;
  $('server').textContent = `Rondo ${info.version} \u00b7 ${info.state} \u00b7 up ${formatUptime(uptime)}`;
  $('server').title = `HTTP ${info.http}, streams ${info.streams}`;
}

/**
 * Each disk's D-response (the response time of discrete requests) beside its bound: p95, p99 and
 * max, and a bar to p99 that turns red past the bound; with the disk's round figures beside.
 */
export function paintResponses(disks) {
  $('responses').replaceChildren(...disks.map((disk) => {
    const r = disk.discreteResponse;
    const scale = Math.max(r.boundMs * BAR_HEADROOM, r.maxMs ?? 0);
    const p99 = r.p99Ms === null ? 0 : Math.min(100, (100 * r.p99Ms) / scale);
    const past = r.p99Ms !== null && r.p99Ms > r.boundMs;
    const figures = `p95 ${formatMs(r.p95Ms)} \u00b7 p99 ${formatMs(r.p99Ms)} \u00b7 max ${formatMs(r.maxMs)}`;
    return el('li', { className: past ? 'over' : '', 'data-disk': disk.name },
      el('div', { className: 'response-head' }, el('strong', {}, disk.name), el('span', {}, figures),
        el('span', { className: 'bound' }, `bound ${formatMs(r.boundMs)}`)),
      el('div', { className: 'bar', title: `p99 ${formatMs(r.p99Ms)} against a bound of ${formatMs(r.boundMs)}` },
        el('div', { className: 'fill', style: `width:${p99.toFixed(1)}%` }),
        el('div', { className: 'mark', style: `left:${((100 * r.boundMs) / scale).toFixed(1)}%` })),
      el('p', { className: 'response-foot' },
        `${count(r.count, 'request')}, `, flagged(r.overBound, `${r.overBound} past the bound`),
        ` \u00b7 ${count(disk.admittedStreams, 'stream')}, ${formatShare(disk.committedShare)} of the round committed`
          + (disk.measuredInflation > 1 ? ` (${disk.measuredInflation.toFixed(2)}\u00d7 as measured)` : '') + ', '
          + `${count(disk.rounds, 'round')}, `,
        flagged(disk.overruns, count(disk.overruns, 'overrun')),
        `, ${count(disk.ioErrors, 'IO error')} \u00b7 queues: ${disk.queues.discrete} discrete, `
          + `${disk.queues.scan} scan`));
  }));
}

/** The admission decisions: how many accepted, how many refused for each reason, and the latest. */
export function paintAdmission(admission) {
  const { accepted, rejected } = admission.decisions;
  const refused = Object.values(rejected).reduce((sum, n) => sum + n, 0);
  $('admission-summary').replaceChildren(
    stat('Policy', admission.policy),
    stat('Admitted now', String(admission.admitted)),
    stat('Accepted', String(accepted)),
    stat('Refused', String(refused), refused > 0 ? 'bad' : ''));
  $('admission-reasons').replaceChildren(...Object.entries(rejected).map(([reason, n]) => el('li',
    { className: n > 0 ? 'bad' : '' }, el('span', {}, REASONS[reason] ?? reason), el('strong', {}, String(n)))));
  const recent = [...admission.recent].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  $('admission-recent').replaceChildren(...recent.map((d) => {
    const retry = d.retryAfterSeconds ? `; retry after ${d.retryAfterSeconds} s` : '';
    return el('li', { className: d.result === 'rejected' ? 'bad' : '' },
      el('time', {}, formatClock(d.at)),
      `${d.object} ${d.result}`,
      d.reason ? ` (${REASONS[d.reason] ?? d.reason}${retry})` : '',
      d.detail ? el('span', { className: 'detail' }, d.detail) : null);
  }));
  $('admission-none').hidden = recent.length > 0;
}

/**
 * The live recordings: how many, their write rounds (late ones in red: a write the disk dropped at
 * its round's end) and bytes written since the start; then each recording with its disk, rate,
 * what is durable against what was cut, and its own late write rounds.
 */
export function paintLive(live) {
  const { totals } = live;
  $('live-summary').replaceChildren(
    stat('Recording now', String(totals.active)),
    stat('Write rounds', String(totals.writeRounds)),
    stat('Late write rounds', String(totals.lateWriteRounds), totals.lateWriteRounds > 0 ? 'bad' : ''),
    stat('Written', formatBytes(totals.bytesWritten)));
  $('live-recordings').replaceChildren(...live.items.map((r) => el('li',
    { className: r.lateWriteRounds > 0 ? 'bad' : '', 'data-name': r.name },
    el('span', {}, `${r.name} on ${r.disk}, ${formatBitRate(r.recentBitsPerSecond)} of `
      + `${formatBitRate(r.peakBitsPerSecond)}, durable ${formatPosition(r.durableSeconds)} of `
      + `${formatPosition(r.recordedSeconds)}, ${count(r.viewers, 'viewer')}`),
    el('strong', { title: 'write rounds, late ones after the slash' },
      `${r.writeRounds} / ${r.lateWriteRounds}`))));
  $('live-none').hidden = live.items.length > 0;
}

/** "1 round", "3 rounds". */
function count(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** text, in red where n is not zero. */
function flagged(n, text) {
  return el('span', { className: n > 0 ? 'bad' : '' }, text);
}

function stat(term, value, className = '') {
  return el('div', {}, el('dt', {}, term), el('dd', { className }, value ?? DASH));
}
