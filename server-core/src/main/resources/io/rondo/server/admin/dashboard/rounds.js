// The rounds the slack chart shows: each disk's newest rounds, as many as fill the chart's span,
// seeded from the disks resource (its last 60) and then fed by the round events. papers/000,
// Section 2.3 and Figure 2: the slack of a round is what is left of it once the continuous
// requests are served; only while it stays above zero are all deadlines kept.

/** The span of the chart: the last five minutes of rounds. */
export const SPAN_MS = 5 * 60 * 1000;

/** How many rounds of roundMs fill the chart's span. */
export function roundsInSpan(roundMs) {
  return Math.max(1, Math.ceil(SPAN_MS / roundMs));
}

/**
 * The chart's span in words: the last `span` rounds once that many are recorded, else only the
 * rounds recorded so far, so that it never names more rounds than the legend counts.
 */
export function spanText(recorded, span, roundMs) {
  if (recorded >= span) {
    return `Shown: the last ${span} rounds of ${roundMs} ms`;
  }
  return `Shown: the last ${plural(recorded, 'round')} of ${roundMs} ms (up to ${span} as they come)`;
}

/** A disk's overruns over the rounds of it the chart holds: `0 overruns in the last 66 rounds`. */
export function overrunsText(overruns, rounds) {
  return `${plural(overruns, 'overrun')} in the last ${plural(rounds, 'round')}`;
}

function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** A fixed number of a disk's newest rounds, in round order, each round once. */
class DiskRounds {
  #slots;
  #start = 0;
  #size = 0;

  constructor(capacity) {
    this.#slots = new Array(capacity);
  }

  get newest() {
    return this.#size === 0 ? null : this.#at(this.#size - 1);
  }

  /** Keeps a round newer than the newest held, dropping the oldest when full; false for any other. */
  add(round) {
    const newest = this.newest;
    if (newest !== null && round.round <= newest.round) {
      return false;
    }
    const capacity = this.#slots.length;
    if (this.#size < capacity) {
      this.#slots[(this.#start + this.#size) % capacity] = round;
      this.#size++;
    } else {
      this.#slots[this.#start] = round;
      this.#start = (this.#start + 1) % capacity;
    }
    return true;
  }

  /** The rounds held, oldest first. */
  toArray() {
    return Array.from({ length: this.#size }, (_, i) => this.#at(i));
  }

  #at(i) {
    return this.#slots[(this.#start + i) % this.#slots.length];
  }
}

export class RoundHistory {
  #capacity;
  #disks = new Map();

  /** capacity: how many rounds of each disk are kept. */
  constructor(capacity) {
    this.#capacity = capacity;
  }

  /** How many rounds of each disk are kept: the chart's span. */
  get capacity() {
    return this.#capacity;
  }

  /**
   * Keeps a round (a round event's data, or an entry of a disk's slack array); a round the
   * history already holds, or older than the disk's newest, is ignored. True if it was kept.
   */
  add(round) {
    let rounds = this.#disks.get(round.disk);
    if (!rounds) {
      rounds = new DiskRounds(this.#capacity);
      this.#disks.set(round.disk, rounds);
    }
    return rounds.add(round);
  }

  /** The disk's rounds, oldest first. */
  rounds(disk) {
    return this.#disks.get(disk)?.toArray() ?? [];
  }

  /** Forgets every round: the server restarted, and its round numbers began again. */
  clear() {
    this.#disks.clear();
  }

  /**
   * The chart's columns: x, the round numbers any disk has, ascending; for each disk (in the order
   * given) its slack in ms at each x, and its overrun points (the slack where the round overran),
   * null where it has none.
   */
  columns(disks) {
    const byDisk = disks.map((disk) => new Map(this.rounds(disk).map((r) => [r.round, r])));
    const x = [...new Set(byDisk.flatMap((rounds) => [...rounds.keys()]))].sort((a, b) => a - b);
    const slack = byDisk.map((rounds) => x.map((n) => rounds.get(n)?.slackMs ?? null));
    const overruns = byDisk.map((rounds) => x.map((n) => {
      const round = rounds.get(n);
      return round?.overrun ? round.slackMs : null;
    }));
    return { x, slack, overruns };
  }
}
