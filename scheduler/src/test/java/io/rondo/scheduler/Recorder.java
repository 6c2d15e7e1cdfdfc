package io.rondo.scheduler;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ScheduleObserver} that writes down what it is told, in order: requests as short readable
 * lines, rounds as their summaries.
 */
final class Recorder implements ScheduleObserver {

    final List<String> events = new ArrayList<>();
    final List<DiscreteRequest> discreteDone = new ArrayList<>();
    final List<ContinuousRequest> continuousDone = new ArrayList<>();
    final List<ContinuousRequest> late = new ArrayList<>();
    final List<ContinuousRequest> discarded = new ArrayList<>();
    final List<RoundSummary> rounds = new ArrayList<>();

    @Override
    public void discreteCompleted(DiscreteRequest request, long nowNs) {
        discreteDone.add(request);
        events.add("D" + request.id() + " done at " + nowNs);
    }

    @Override
    public void continuousCompleted(ContinuousRequest request, long nowNs) {
        continuousDone.add(request);
        events.add("C" + request.id() + " done at " + nowNs);
    }

    @Override
    public void glitch(ContinuousRequest request, long nowNs, boolean discarded) {
        (discarded ? this.discarded : late).add(request);
        events.add("C" + request.id() + (discarded ? " discarded at " : " late at ") + nowNs);
    }

    @Override
    public void roundEnded(RoundSummary summary) {
        rounds.add(summary);
    }
}
