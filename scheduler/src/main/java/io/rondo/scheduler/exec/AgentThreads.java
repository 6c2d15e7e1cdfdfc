package io.rondo.scheduler.exec;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The threads of a group of agents (Aeron's dedicated threading mode): each agent on a daemon
 * thread of its own named by its role, run by an {@link AgentRunner}, a failure of a duty cycle
 * logged with the agent's role and the agent kept running. Closing stops them in the reverse
 * order of their start, each after its current duty cycle. Tests that step agents by hand (the
 * invoker mode) use none of this: they call {@link Agent#doWork()} themselves. Used by the one
 * thread that owns the group.
 */
public final class AgentThreads implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AgentThreads.class);

    private final List<AgentRunner> runners = new ArrayList<>();

    /** Starts {@code agent} on a thread named by its role, idling as {@code idle} says. */
    public void start(Agent agent, IdleStrategy idle) {
        AgentRunner runner = new AgentRunner(idle,
            error -> LOG.error("{} failed a duty cycle and goes on: {}", agent.roleName(), error.toString(), error),
            null, agent);
        AgentRunner.startOnThread(runner, task -> {
            Thread thread = new Thread(task);
            thread.setDaemon(true);
            return thread;
        });
        runners.add(runner);
    }

    /** Stops every agent, the last started first, each after its current duty cycle. */
    @Override
    public void close() {
        for (int i = runners.size() - 1; i >= 0; i--) {
            runners.get(i).close();
        }
        runners.clear();
    }
}
