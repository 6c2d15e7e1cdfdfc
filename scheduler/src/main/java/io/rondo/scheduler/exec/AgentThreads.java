package io.rondo.scheduler.exec;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The duty cycles of a group of agents. In the {@link ThreadingMode#DEDICATED dedicated} mode each
 * agent runs on a daemon thread of its own named by its role, under an {@link AgentRunner}: a
 * failure of a duty cycle is logged with the agent's role and the agent kept running. In the
 * {@link ThreadingMode#INVOKER invoker} mode no thread is started: the caller steps every agent,
 * in the order they were started, with {@link #invoke()}, and a failure reaches the caller.
 * Closing stops the agents in the reverse order of their start, each after its current duty
 * cycle. Used by the one thread that owns the group.
 */
public final class AgentThreads implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AgentThreads.class);

    private final ThreadingMode mode;
    private final List<AgentRunner> runners = new ArrayList<>();
    private final List<Agent> invoked = new ArrayList<>();

    /** Agents on threads of their own. */
    public AgentThreads() {
        this(ThreadingMode.DEDICATED);
    }

    /** Agents run as {@code mode} says. */
    public AgentThreads(ThreadingMode mode) {
        this.mode = mode;
    }

    /** How these agents are run. */
    public ThreadingMode mode() {
        return mode;
    }

    /**
     * Starts {@code agent}: on a thread named by its role, idling as {@code idle} says; or, in the
     * invoker mode, {@link Agent#onStart()} now and a duty cycle at each {@link #invoke()}.
     */
    public void start(Agent agent, IdleStrategy idle) {
        if (mode == ThreadingMode.INVOKER) {
            agent.onStart();
            invoked.add(agent);
            return;
        }
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

    /**
     * One duty cycle of every agent, in the order they were started (invoker mode only).
     *
     * @return the work the agents did: 0 when none had any
     */
    public int invoke() {
        if (mode != ThreadingMode.INVOKER) {
            throw new IllegalStateException("the agents run on threads of their own (" + mode + ")");
        }
        int work = 0;
        for (Agent agent : invoked) {
            try {
                work += agent.doWork();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(agent.roleName() + " failed a duty cycle", e);
            }
        }
        return work;
    }

    /** Stops every agent, the last started first, each after its current duty cycle. */
    @Override
    public void close() {
        for (int i = invoked.size() - 1; i >= 0; i--) {
            invoked.get(i).onClose();
        }
        invoked.clear();
        for (int i = runners.size() - 1; i >= 0; i--) {
            runners.get(i).close();
        }
        runners.clear();
    }
}
