package io.rondo.server.observe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The server's events as Server-Sent Events ({@code GET /api/v1/events}): each disk's rounds,
 * streams admitted, refused and ended, policy changes. A publisher pays nothing while no one
 * listens; with listeners, it writes each event's JSON once and hands it to every listener's
 * connection, and a listener whose connection is full misses events rather than holding them in
 * memory (the dropped count is kept). A comment line every 15 s keeps idle connections open
 * through proxies.
 */
public final class EventHub {

    private static final Logger LOG = LoggerFactory.getLogger(EventHub.class);

    /** How often an idle event stream gets a comment line. */
    static final long KEEP_ALIVE_SECONDS = 15;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<Channel> listeners = new CopyOnWriteArrayList<>();
    private final AtomicLong dropped = new AtomicLong();
    private final Supplier<Object> hello;

    /** @param hello the payload of the {@code hello} event each new listener gets first */
    public EventHub(Supplier<Object> hello) {
        this.hello = hello;
    }

    /** True if someone listens: publishers may skip building an event otherwise. */
    public boolean listened() {
        return !listeners.isEmpty();
    }

    /** Events missed by listeners whose connections were full. */
    public long dropped() {
        return dropped.get();
    }

    /** Listeners now. */
    public int listeners() {
        return listeners.size();
    }

    /** Sends {@code event} with {@code payload} as JSON to every listener. Thread-safe. */
    public void publish(String event, Object payload) {
        if (listeners.isEmpty()) {
            return;
        }
        byte[] bytes = encode(event, payload);
        for (Channel channel : listeners) {
            send(channel, bytes);
        }
    }

    /**
     * Takes over an event stream's connection, whose response headers are written: the
     * {@code hello} event now, then every published event until it closes.
     */
    public void attach(Channel channel) {
        send(channel, encode("hello", hello.get()));
        listeners.add(channel);
        ScheduledFuture<?> keepAlive = channel.eventLoop().scheduleAtFixedRate(
            () -> send(channel, ": keep-alive\n\n".getBytes(StandardCharsets.UTF_8)),
            KEEP_ALIVE_SECONDS, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
        channel.closeFuture().addListener(closed -> {
            listeners.remove(channel);
            keepAlive.cancel(false);
        });
    }

    private void send(Channel channel, byte[] bytes) {
        if (!channel.isActive()) {
            return;
        }
        if (!channel.isWritable()) {
            dropped.incrementAndGet();
            return;
        }
        channel.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(bytes)));
    }

    /** One event in the text/event-stream format: {@code event:}, {@code data:} and a blank line. */
    static byte[] encode(String event, Object payload) {
        try {
            return ("event: " + event + "\ndata: " + JSON.writeValueAsString(payload) + "\n\n")
                .getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            LOG.warn("cannot write a {} event as JSON", event, e);
            return ("event: " + event + "\ndata: null\n\n").getBytes(StandardCharsets.UTF_8);
        }
    }
}
