/** Milliseconds spent in each phase of an operation, in order: what an operator reads to see where time goes. */
export class PhaseTimer {
  private readonly phases: Record<string, number> = {};
  private last = performance.now();

  lap(phase: string): void {
    const now = performance.now();
    this.phases[phase] = Math.round((this.phases[phase] ?? 0) + now - this.last);
    this.last = now;
  }

  get durationsMs(): Record<string, number> {
    return { ...this.phases };
  }
}
