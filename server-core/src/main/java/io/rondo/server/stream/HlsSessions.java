package io.rondo.server.stream;

import io.netty.util.concurrent.EventExecutor;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.RejectReason;
import io.rondo.server.config.ClientBufferUse;

import java.net.SocketAddress;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's HLS playback sessions (docs/hls.md): each admitted as an OPEN is, found by the key
 * its URLs carry. Thread-safe.
 */
public final class HlsSessions {

    /**
     * What an HLS client is taken to declare: it declares nothing, so no profile check can refuse it,
     * and it keeps two buffers of its own (DblBuf), read a round ahead of what it asks for.
     */
    static final ClientProfile PROFILE = new ClientProfile(Long.MAX_VALUE / 4, Long.MAX_VALUE / 4);

    /**
     * How far ahead of the time since it started (or last moved) a session's client is answered at
     * once: two segments of the playlists' six-second target, what players buffer before they play.
     */
    static final long LEAD_NS = 12_000_000_000L;

    private static final int KEY_BYTES = 16;

    private final SessionServices services;
    private final long leadNs;
    private final Map<String, HlsSession> byKey = new ConcurrentHashMap<>();
    /**
     * Where session keys come from: seeded once from the system's entropy, then drawn without a
     * system call, since a key is made on an event loop, which must not block.
     */
    private final SplittableRandom keys = new SplittableRandom(new SecureRandom().nextLong());
    private final LongAdder fromMemory = new LongAdder();
    private final LongAdder fromDisk = new LongAdder();

    /**
     * @param leadNs how far ahead of the time since it started a session's client may ask and be
     *               answered at once: what a player buffers before it plays
     */
    HlsSessions(SessionServices services, long leadNs) {
        this.services = services;
        this.leadNs = leadNs;
    }

    /** A session, or why there is none. */
    public sealed interface Opened permits Admitted, Refused {
    }

    /** The session admitted. */
    public record Admitted(HlsSession session) implements Opened {
    }

    /**
     * No session: {@code status} is the HTTP status that says why (404 no such object, 415 not a
     * continuous object, 503 no room now, with a retry-after in seconds).
     */
    public record Refused(int status, int retryAfterSeconds, String message) implements Opened {
    }

    /**
     * Admits a session of object {@code name} for the client at {@code remote}, its reads completing on
     * {@code loop}: refused as an OPEN would be.
     */
    public Opened open(String name, SocketAddress remote, EventExecutor loop) {
        String client = ClientAddress.of(remote);
        StreamAdmission.Answer answer = services.admission().open(new Open(name, 0, PROFILE), client,
            ClientBufferUse.OFF);
        if (answer instanceof StreamAdmission.Refused no) {
            int status = no.reason() == RejectReason.NOT_FOUND ? 404
                : no.reason() == RejectReason.NOT_CONTINUOUS ? 415 : 503;
            return new Refused(status, Math.max(1, no.retryAfterSeconds()), no.message());
        }
        HlsSession session = new HlsSession(services, this, newKey(),
            (StreamAdmission.Admitted) answer, loop, client, leadNs);
        byKey.put(session.key(), session);
        services.registry().add(session);
        loop.execute(session::start);
        return new Admitted(session);
    }

    private synchronized String newKey() {
        byte[] key = new byte[KEY_BYTES];
        keys.nextBytes(key);
        return HexFormat.of().formatHex(key);
    }

    /** The live session of key {@code key}, if there is one. */
    public Optional<HlsSession> find(String key) {
        HlsSession session = key == null ? null : byKey.get(key);
        return session == null || session.ended() ? Optional.empty() : Optional.of(session);
    }

    void ended(HlsSession session) {
        byKey.remove(session.key(), session);
    }

    /** Sessions being served now. */
    public int active() {
        return byKey.size();
    }

    void fromMemory() {
        fromMemory.increment();
    }

    /** A GET of a session's URL that the session could not take was answered as a plain ranged GET. */
    public void fromDisk() {
        fromDisk.increment();
    }

    /** Parts and segments answered from what their sessions' rounds read ahead, so far. */
    public long answeredFromMemory() {
        return fromMemory.sum();
    }

    /** GETs of sessions' URLs answered as plain ranged GETs (D-requests), so far. */
    public long answeredFromDisk() {
        return fromDisk.sum();
    }
}
